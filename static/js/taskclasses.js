// Task-class pages: ask before destructive forms, and count the blocks typed one per line.
(function () {
  document.querySelectorAll("form[data-confirm]").forEach((form) => {
    form.addEventListener("submit", (event) => {
      if (!window.confirm(form.dataset.confirm)) event.preventDefault();
    });
  });

  const lines = document.getElementById("id_items_text");
  const count = document.getElementById("tc-line-count");
  const number = document.getElementById("id_item_count");
  if (!lines || !count) return;

  function update() {
    const n = lines.value.split("\n").filter((line) => line.trim() !== "").length;
    count.hidden = n === 0;
    count.textContent = count.dataset.label + " " + n;
    // Lines win over the number (as on the server); show it by greying the number out.
    if (number) number.disabled = n > 0;
  }

  lines.addEventListener("input", update);
  update();
})();
