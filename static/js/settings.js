// Section-time editor: add and remove rows, keep the numbering right, respect the maximum.
(function () {
  const table = document.getElementById("sections");
  if (!table) return;
  const body = table.querySelector("tbody");
  const max = Number(table.dataset.max || 16);
  const addButton = document.getElementById("add-section");
  // The second grid (winter or summer hours) has one row per section of the first: it follows its count.
  const laterBody = document.querySelector("#later-sections tbody");
  const laterEditor = document.getElementById("later-sections-editor");
  const laterAdd = document.getElementById("add-later-sections");

  function followCount() {
    if (!laterBody) return;
    while (laterBody.children.length > body.children.length) laterBody.lastElementChild.remove();
    body.querySelectorAll("tr").forEach((row, index) => {
      if (index < laterBody.children.length) return;
      const copy = laterBody.lastElementChild.cloneNode(true);
      copy.querySelector('input[name="later_section_start"]').value = row.querySelector('input[name="section_start"]').value;
      copy.querySelector('input[name="later_section_end"]').value = row.querySelector('input[name="section_end"]').value;
      laterBody.appendChild(copy);
    });
    laterBody.querySelectorAll("tr").forEach((row, index) => {
      row.querySelector(".section-number").textContent = String(index + 1);
    });
  }

  function renumber() {
    body.querySelectorAll("tr").forEach((row, index) => {
      row.querySelector(".section-number").textContent = String(index + 1);
    });
    addButton.disabled = body.children.length >= max;
    followCount();
  }

  if (laterAdd && laterEditor) {
    laterAdd.addEventListener("click", () => {
      // Start from the first grid's times as they stand now: usually only the afternoon moves.
      followCount();
      body.querySelectorAll("tr").forEach((row, index) => {
        const copy = laterBody.children[index];
        copy.querySelector('input[name="later_section_start"]').value = row.querySelector('input[name="section_start"]').value;
        copy.querySelector('input[name="later_section_end"]').value = row.querySelector('input[name="section_end"]').value;
      });
      laterEditor.querySelectorAll("input").forEach((input) => { input.disabled = false; });
      laterEditor.hidden = false;
      document.getElementById("later-sections-offer").hidden = true;
      laterEditor.querySelector('input[name="later_sections_from"]').focus();
    });
  }

  addButton.addEventListener("click", () => {
    const last = body.lastElementChild;
    if (!last || body.children.length >= max) return;
    const row = last.cloneNode(true);
    const end = last.querySelector('input[name="section_end"]').value || "08:00";
    const [h, m] = end.split(":").map(Number);
    const start = new Date(0, 0, 0, h, m + 10);
    const finish = new Date(0, 0, 0, h, m + 55);
    const fmt = (d) => String(d.getHours()).padStart(2, "0") + ":" + String(d.getMinutes()).padStart(2, "0");
    row.querySelector('input[name="section_start"]').value = fmt(start);
    row.querySelector('input[name="section_end"]').value = fmt(finish);
    body.appendChild(row);
    renumber();
  });

  body.addEventListener("click", (event) => {
    if (!event.target.classList.contains("remove-section")) return;
    if (body.children.length <= 1) return;
    event.target.closest("tr").remove();
    renumber();
  });

  renumber();
})();
