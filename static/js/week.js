// Week board: keyboard navigation (← → T), today's column, and adjusting a suggested plan by
// dragging blocks (checked by the server, which says why a drop is refused).
(function () {
  const board = document.querySelector("table.board");
  if (!board) return;
  const week = Number(board.dataset.week);
  const weeks = Number(board.dataset.weeks);
  const preview = board.dataset.preview;
  const params = new URLSearchParams(window.location.search);

  function go(target) {
    if (target < 1 || target > weeks) return;
    params.set("week", String(target));
    window.location.search = params.toString();
  }

  document.addEventListener("keydown", (event) => {
    const tag = (event.target.tagName || "").toLowerCase();
    if (tag === "input" || tag === "textarea" || tag === "select" || event.target.closest("dialog") || event.metaKey || event.ctrlKey || event.altKey) return;
    if (event.key === "ArrowLeft") go(week - 1);
    else if (event.key === "ArrowRight") go(week + 1);
    else if (event.key === "t" || event.key === "T") { params.delete("week"); window.location.search = params.toString(); }
  });

  const todayHeader = board.querySelector("thead th.today");
  if (todayHeader) {
    board.querySelectorAll('tbody td[data-day="' + todayHeader.dataset.day + '"]').forEach((cell) => cell.classList.add("today"));
  }

  if (!preview) return;
  const errorBox = document.getElementById("board-error");

  // A refused drop: the server's message (the same words the assistant uses for this refusal) and,
  // when it has any, the places that would work, in the bar at the foot of the window (where the
  // student is looking whatever the board's scroll).
  function showError(message, suggestions) {
    errorBox.querySelector("[data-test=board-error-message]").textContent = message;
    errorBox.querySelector("[data-test=board-error-suggestions]").textContent = suggestions || "";
    errorBox.hidden = false;
  }
  errorBox.querySelector("[data-close-error]").addEventListener("click", () => { errorBox.hidden = true; });

  async function send(method, url, body) {
    errorBox.hidden = true;  // the last refusal is not this drop's
    try {
      await window.Api.request(method, url, { body: body || undefined });
    } catch (refused) {
      showError(refused.message, refused.detail.suggestions_text || "");
      return;
    }
    window.location.reload();
  }

  let dragged = null;
  board.querySelectorAll("[data-test=suggestion]").forEach((block) => {
    block.addEventListener("dragstart", (event) => {
      dragged = block.dataset.item;
      event.dataTransfer.setData("text/plain", dragged);
      event.dataTransfer.effectAllowed = "move";
    });
  });
  // Every cell takes a drop; the server accepts it or says why not (a course, an excluded block...).
  board.querySelectorAll("td.free, td.event, td.suggestion-cell").forEach((cell) => {
    cell.addEventListener("dragover", (event) => { event.preventDefault(); cell.classList.add("drop-target"); });
    cell.addEventListener("dragleave", () => cell.classList.remove("drop-target"));
    cell.addEventListener("drop", (event) => {
      event.preventDefault();
      cell.classList.remove("drop-target");
      const item = event.dataTransfer.getData("text/plain") || dragged;
      if (!item) return;
      // Blocks are pairs: a drop anywhere in a pair means the pair's first section.
      const section = Number(cell.dataset.section);
      const start = section % 2 === 1 ? section : section - 1;
      send("PATCH", `/api/v1/previews/${preview}/blocks/${item}/`, { week, day: Number(cell.dataset.day), start_section: start });
    });
  });
  // The table's × and the phone agenda's × (templates/board/_agenda.html) both remove a block.
  document.querySelectorAll(".remove-block").forEach((button) => {
    button.addEventListener("click", () => send("DELETE", `/api/v1/previews/${preview}/blocks/${button.dataset.item}/`));
  });
  board.dataset.ready = "true";  // for tests: the preview's blocks take drags and drops from now on
})();
