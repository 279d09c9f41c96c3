// Quick add: as the student types, show how the note will be read (title, deadline, quadrant),
// and let them correct it before saving. Without JavaScript the form still saves the raw text.
(function () {
  const form = document.getElementById("quick-add-form");
  if (!form) return;
  const text = document.getElementById("quick-add-text");
  const preview = document.getElementById("quick-add-preview");
  const title = document.getElementById("qa-title");
  const deadline = document.getElementById("qa-deadline");
  const deadlineEdited = document.getElementById("qa-deadline-edited");
  const quadrant = document.getElementById("qa-quadrant");
  const ambiguous = document.getElementById("qa-ambiguous");
  const free = document.getElementById("qa-free");
  const csrf = form.querySelector("input[name=csrfmiddlewaretoken]").value;
  let timer = null;
  let latest = 0;

  // "2026-03-22T23:59:00+08:00" -> "2026-03-22T23:59" (the student's own zone, as sent).
  const toLocalInput = (iso) => (iso ? iso.slice(0, 16) : "");

  async function refresh() {
    const value = text.value.trim();
    if (!value) { preview.hidden = true; return; }
    const ticket = ++latest;
    const response = await fetch("/api/v1/tasks/parse/", {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf },
      body: JSON.stringify({ text: value }),
      credentials: "same-origin",
    });
    if (ticket !== latest || !response.ok) return;
    const parsed = await response.json();
    title.value = parsed.title;
    deadline.value = toLocalInput(parsed.deadline);
    deadlineEdited.value = "0";
    quadrant.value = String(parsed.quadrant);
    ambiguous.hidden = !parsed.ambiguous;
    free.hidden = parsed.deadline !== null || parsed.ambiguous;
    preview.hidden = false;
    form.dataset.parsed = "1";
  }

  text.addEventListener("input", () => {
    form.dataset.parsed = "0";
    clearTimeout(timer);
    timer = setTimeout(refresh, 250);
  });
  deadline.addEventListener("input", () => { deadlineEdited.value = "1"; });
  // Text typed before this script ran (a slow load) or restored by the browser's back button
  // still gets its preview.
  if (text.value.trim()) refresh();
  form.dataset.ready = "1";
})();
