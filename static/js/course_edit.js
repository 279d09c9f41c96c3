// The course dialog (templates/board/_course_edit.html): a course meeting on the week board or in the
// day agenda opens it (click, Enter or Space). It edits the course's name, teacher, location and filler
// mark, or deletes this one meeting (a holiday) or the whole course. A change that takes study blocks
// off the board first asks the server for a dry run and lists those blocks; the student confirms, the
// page reloads and the board's undo bar (js/board_edit.js reads the same sessionStorage key) offers undo.
(function () {
  const root = document.getElementById("course-edit");
  const dialog = document.getElementById("course-dialog");
  if (!root || !dialog) return;
  const form = document.getElementById("course-form");
  const confirmBox = dialog.querySelector("[data-test=course-confirm]");
  const errorBox = dialog.querySelector("[data-test=course-dialog-error]");
  const UNDO_KEY = "smartmate.board.undo";
  let cell = null;
  let course = null;
  let pending = null;  // {method, url, body} of the change waiting for confirmation

  function fill(template, values) {
    return Object.keys(values).reduce((text, key) => text.split(`{${key}}`).join(String(values[key])), template);
  }

  function call(method, url, body) {
    return window.Api.request(method, url, { body: body || undefined, fallback: root.dataset.textError });
  }

  function showError(message) {
    errorBox.textContent = message;
    errorBox.hidden = false;
  }

  function showForm() {
    form.hidden = false;
    confirmBox.hidden = true;
  }

  async function open(target) {
    cell = target;
    course = null;
    pending = null;
    errorBox.hidden = true;
    showForm();
    const name = cell.dataset.courseName || "";
    dialog.querySelector("[data-test=course-dialog-title]").textContent = name;
    dialog.querySelector("[data-test=course-dialog-when]").textContent =
      fill(root.dataset.textWhen, { date: cell.dataset.meetingDate || "", week: cell.dataset.meetingWeek || "" });
    form.elements.name.value = name;
    form.elements.teacher.value = "";
    form.elements.location.value = "";
    form.elements.is_filler.value = cell.classList.contains("filler") ? "1" : "0";
    // Until the course arrives the form is read-only: an answer landing after the student's first
    // change would otherwise overwrite it (and "save" would then change nothing).
    setLoading(true);
    dialog.showModal();
    try {
      course = await call("GET", courseUrl());
      form.elements.name.value = course.name;
      form.elements.teacher.value = course.teacher;
      form.elements.location.value = course.location;
      form.elements.is_filler.value = course.is_filler ? "1" : "0";
    } catch (error) {
      showError(error.message);
    } finally {
      setLoading(false);
      form.elements.name.focus();
    }
  }

  function setLoading(loading) {
    Array.from(form.elements).forEach((element) => { element.disabled = loading; });
    dialog.dataset.loaded = loading ? "false" : "true";
  }

  function courseUrl() { return `/api/v1/schedule/courses/${cell.dataset.courseId}/`; }
  function meetingUrl() { return `${courseUrl()}meetings/${cell.dataset.eventId}/`; }

  function blockText(block) {
    return fill(root.dataset.textBlock, { title: block.title, week: block.week, day: block.day_label,
                                          first: block.start_section, last: block.end_section });
  }

  // Ask for a dry run; show what it would displace and wait for "Confirm" (a save that displaces nothing
  // is written at once).
  async function prepare(change, question) {
    errorBox.hidden = true;
    let preview;
    try {
      if (change.method === "DELETE") preview = await call("DELETE", `${change.url}?dry_run=true`);
      else preview = await call(change.method, change.url, { ...change.body, dry_run: true });
    } catch (error) { showError(error.message); return; }
    if (!question && !preview.displaced.length) { commit(change); return; }
    pending = change;
    confirmBox.querySelector("[data-test=course-confirm-text]").textContent = question || "";
    confirmBox.querySelector("[data-test=course-displaced-intro]").textContent =
      preview.displaced.length ? root.dataset.textDisplaced : root.dataset.textNone;
    const list = confirmBox.querySelector("[data-test=course-displaced]");
    list.replaceChildren(...preview.displaced.map((block) => {
      const item = document.createElement("li");
      item.dataset.test = "course-displaced-block";
      item.textContent = blockText(block);
      return item;
    }));
    form.hidden = true;
    confirmBox.hidden = false;
    confirmBox.querySelector("[data-test=course-confirm-button]").focus();
  }

  async function commit(change) {
    try {
      const result = await call(change.method, change.url, change.body);
      if (result && result.changeset_id) {
        sessionStorage.setItem(UNDO_KEY, JSON.stringify({ id: result.changeset_id, summary: result.summary }));
      }
      window.location.reload();
    } catch (error) {
      showError(error.message);
    }
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const f = form.elements;
    const body = { name: f.name.value.trim(), teacher: f.teacher.value.trim(), location: f.location.value.trim(),
                   is_filler: f.is_filler.value === "1" };
    const fillerOff = course && course.is_filler && !body.is_filler;
    const question = fillerOff ? fill(root.dataset.textConfirmFiller, { course: body.name }) : "";
    prepare({ method: "PATCH", url: courseUrl(), body }, question);
  });

  dialog.addEventListener("click", (event) => {
    const button = event.target.closest("[data-action]");
    if (!button || !cell) return;
    const name = cell.dataset.courseName || "";
    const action = button.dataset.action;
    if (action === "close") dialog.close();
    else if (action === "back") showForm();
    else if (action === "confirm" && pending) commit(pending);
    else if (action === "delete-meeting") {
      prepare({ method: "DELETE", url: meetingUrl() },
              fill(root.dataset.textConfirmMeeting, { course: name, date: cell.dataset.meetingDate || "" }));
    } else if (action === "delete-course") {
      prepare({ method: "DELETE", url: courseUrl() }, fill(root.dataset.textConfirmCourse, { course: name }));
    }
  });

  dialog.addEventListener("close", () => { if (cell) cell.focus(); });

  // A course meeting, but not a block embedded in it or a button inside it (those are theirs). Listening
  // while capturing, on the document, so the board's other dialogs never see a click meant for a course.
  function courseCellOf(target) {
    const found = target.closest("[data-course-id]");
    if (!found) return null;
    const inner = target.closest("[data-block-kind], button, a, form, input, select, textarea");
    return inner && inner !== found && found.contains(inner) ? null : found;
  }

  document.addEventListener("click", (event) => {
    const found = courseCellOf(event.target);
    if (!found || dialog.contains(found)) return;
    event.stopPropagation();
    open(found);
  }, true);

  document.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" && event.key !== " ") return;
    if (!event.target.matches || !event.target.matches("[data-course-id]")) return;
    event.preventDefault();
    event.stopPropagation();
    open(event.target);
  }, true);

  root.dataset.ready = "true";  // for tests: course cells answer clicks from now on
})();
