// Week board: keyboard navigation (← → T) and today's column highlight.
(function () {
  const board = document.querySelector("table.board");
  if (!board) return;
  const week = Number(board.dataset.week);
  const weeks = Number(board.dataset.weeks);

  function go(target) {
    if (target < 1 || target > weeks) return;
    window.location.search = "?week=" + target;
  }

  document.addEventListener("keydown", (event) => {
    const tag = (event.target.tagName || "").toLowerCase();
    if (tag === "input" || tag === "textarea" || tag === "select" || event.metaKey || event.ctrlKey || event.altKey) return;
    if (event.key === "ArrowLeft") go(week - 1);
    else if (event.key === "ArrowRight") go(week + 1);
    else if (event.key === "t" || event.key === "T") window.location.search = "";
  });

  const todayHeader = board.querySelector("thead th.today");
  if (todayHeader) {
    const day = todayHeader.dataset.day;
    board.querySelectorAll('tbody td[data-day="' + day + '"]').forEach((cell) => cell.classList.add("today"));
  }
})();
