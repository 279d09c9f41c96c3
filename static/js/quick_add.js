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
  const quadrantEdited = document.getElementById("qa-quadrant-edited");
  const learned = document.getElementById("qa-learned");
  const ambiguous = document.getElementById("qa-ambiguous");
  const free = document.getElementById("qa-free");
  const readings = document.getElementById("qa-readings");
  const readingsList = document.getElementById("qa-readings-list");
  const remembered = document.getElementById("qa-reading-remembered");
  const refined = document.getElementById("qa-refined");
  const refineQuota = document.getElementById("qa-refine-quota");
  let timer = null;
  let latest = 0;
  let titleEdited = false;

  // "2026-03-22T23:59:00+08:00" -> "2026-03-22T23:59" (the student's own zone, as sent).
  const toLocalInput = (iso) => (iso ? iso.slice(0, 16) : "");

  // Reading the text writes nothing, so it carries no idempotency key.
  function readAs(url, value, signal) {
    return window.Api.request("POST", url, { body: { text: value }, key: false, signal });
  }

  async function refresh() {
    const value = text.value.trim();
    if (!value) { preview.hidden = true; return; }
    const ticket = ++latest;
    let parsed;
    try {
      parsed = await readAs("/api/v1/tasks/parse/", value);
    } catch (refused) {
      return;  // the form still saves the raw text
    }
    if (ticket !== latest) return;
    title.value = parsed.title;
    titleEdited = false;
    deadlineEdited.value = "0";
    showDate(parsed);
    quadrant.value = String(parsed.quadrant);
    quadrantEdited.value = "0";
    learned.hidden = parsed.quadrant_reason !== "learned";
    refined.hidden = true;
    refineQuota.hidden = true;
    preview.hidden = false;
    form.dataset.parsed = "1";
    // Where the rules ran out, the model may refine the answer already on screen (taskclasses/notes/refine.py).
    if (form.dataset.refine === "1" && (parsed.doubts || []).length) refine(value, ticket);
  }

  function showDate(parsed) {
    deadline.value = toLocalInput(parsed.deadline);
    ambiguous.hidden = !parsed.ambiguous;
    free.hidden = parsed.deadline !== null || parsed.ambiguous;
    showReadings(parsed.readings || []);
  }

  async function refine(value, ticket) {
    form.dataset.refined = "0";
    let body;
    try {
      // The server keeps the model to its budget; a network that hangs past the page's wait (the budget
      // and 2 s) leaves the rules' answer too.
      const waitMs = Number(form.dataset.refineWaitMs) || 4000;
      body = await readAs("/api/v1/tasks/quick-add/refine/", value, AbortSignal.timeout(waitMs));
    } catch (error) {
      return;  // no model, or no answer in time: the rules' answer stands
    }
    if (ticket !== latest) return;  // typed on meanwhile
    refineQuota.hidden = body.outcome !== "quota_exceeded";
    if (body.outcome === "refined") applyRefinement(body.parse, body.changed);
    form.dataset.refined = "1";
  }

  // The model's answer replaces the rules' where the student has not touched the field: a date they
  // picked or typed, a title or quadrant they changed, stays theirs. The badge says the model spoke.
  function applyRefinement(parsed, changed) {
    let applied = false;
    if (changed.includes("title") && !titleEdited) { title.value = parsed.title; applied = true; }
    if (changed.includes("quadrant") && quadrantEdited.value !== "1") {
      quadrant.value = String(parsed.quadrant);
      learned.hidden = true;
      applied = true;
    }
    if ((changed.includes("deadline") || changed.includes("readings")) && deadlineEdited.value !== "1") {
      showDate(parsed);
      // Saving re-reads the text with the rules alone, so the model's date travels as the student's.
      if (parsed.deadline) deadlineEdited.value = "1";
      applied = true;
    }
    refined.hidden = !applied;
  }

  // An ambiguous note offers its readings as one-tap choices (QUICK-ADD.md: never a guessed date).
  // Tapping one sets the deadline; saving with it keeps the pick for this phrasing (readings.py),
  // and a pick kept before is pre-selected, marked so the student sees why.
  function showReadings(choices) {
    readingsList.replaceChildren(...choices.map((reading) => {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "reading-choice";
      button.dataset.test = "quick-add-reading";
      button.textContent = reading.text;
      button.setAttribute("aria-pressed", "false");
      button.addEventListener("click", () => pickReading(button, reading));
      return button;
    }));
    readings.hidden = choices.length === 0;
    remembered.hidden = true;
    const kept = choices.findIndex((reading) => reading.remembered);
    if (kept >= 0) {
      pickReading(readingsList.children[kept], choices[kept]);
      remembered.hidden = false;
    }
  }

  function pickReading(button, reading) {
    for (const other of readingsList.children) other.setAttribute("aria-pressed", String(other === button));
    deadline.value = toLocalInput(reading.deadline);
    deadlineEdited.value = "1";
    ambiguous.hidden = true;
    remembered.hidden = true;
  }

  text.addEventListener("input", () => {
    form.dataset.parsed = "0";
    clearTimeout(timer);
    timer = setTimeout(refresh, 250);
  });
  deadline.addEventListener("input", () => {
    deadlineEdited.value = "1";
    for (const other of readingsList.children) other.setAttribute("aria-pressed", "false");
  });
  // Only a quadrant the student picked themselves teaches quick add (see taskclasses/notes/lessons.py).
  quadrant.addEventListener("change", () => { quadrantEdited.value = "1"; learned.hidden = true; });
  title.addEventListener("input", () => { titleEdited = true; });

  // What quick add learned from earlier corrections: listed under the form, each forgettable.
  const lessons = document.getElementById("qa-lessons");
  const lessonList = document.getElementById("qa-lessons-list");
  const lessonRow = document.getElementById("qa-lesson-row");
  const lessonsUrl = "/api/v1/tasks/lessons/";

  async function loadLessons() {
    let rows;
    try { rows = await window.Api.request("GET", lessonsUrl); } catch (refused) { return; }
    lessonList.replaceChildren(...rows.map((row) => {
      const item = lessonRow.content.firstElementChild.cloneNode(true);
      item.querySelector(".lesson-keyword").textContent = row.keyword;
      item.querySelector(".lesson-quadrant").textContent = `${row.quadrant} · ${row.quadrant_label}`;
      item.querySelector(".lesson-forget").addEventListener("click", () => forget(`${lessonsUrl}${row.id}/`));
      return item;
    }));
    lessons.hidden = rows.length === 0;
  }

  async function forget(url) {
    // Whatever the answer, the list is redrawn from what the server now keeps.
    await window.Api.request("DELETE", url, { key: false }).catch(() => {});
    await loadLessons();
  }

  document.getElementById("qa-lessons-clear").addEventListener("click", () => forget(lessonsUrl));
  loadLessons();
  // Text typed before this script ran (a slow load) or restored by the browser's back button
  // still gets its preview.
  if (text.value.trim()) refresh();
  form.dataset.ready = "1";
})();
