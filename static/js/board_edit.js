// Week board direct edits (templates/schedule/_board_edit.html): a free cell opens a dialog that
// adds an event (this week or repeating); a placed study block or quick note opens a dialog to move
// it to a suggested place, remove it or mark it done / not done, then offers to undo; a custom
// event can be deleted (this week or every week). Every refusal shows the server's own message.
(function () {
  const root = document.getElementById("board-edit");
  const board = document.querySelector("table.board");
  if (!root || !board) return;
  const week = Number(root.dataset.week);
  const csrf = root.querySelector("input[name=csrfmiddlewaretoken]").value;
  const eventDialog = document.getElementById("event-dialog");
  const eventForm = document.getElementById("event-form");
  const blockDialog = document.getElementById("block-dialog");
  const undoBar = document.getElementById("edit-undo");
  const UNDO_KEY = "smartmate.board.undo";

  async function call(method, url, body) {
    const response = await fetch(url, {
      method,
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf, "X-Idempotency-Key": crypto.randomUUID() },
      body: body ? JSON.stringify(body) : undefined,
      credentials: "same-origin",
    });
    let data = null;
    try { data = await response.json(); } catch (error) { /* 204 or not JSON */ }
    if (!response.ok) {
      const error = new Error((data && data.message) || root.dataset.textError);
      throw error;
    }
    return data;
  }

  function showError(box, message) {
    box.textContent = message;
    box.hidden = false;
  }

  root.querySelectorAll("[data-close]").forEach((button) => {
    button.addEventListener("click", () => button.closest("dialog").close());
  });

  // --- A new event in a free cell ---
  function openNew(cell) {
    const day = Number(cell.dataset.day);
    const section = Number(cell.dataset.section);
    eventForm.reset();
    eventForm.elements.day.value = String(day);
    eventForm.elements.start_section.value = String(section);
    const end = eventForm.elements.end_section;
    Array.from(end.options).forEach((option) => { option.disabled = Number(option.value) < section; });
    const pairEnd = section % 2 === 1 ? section + 1 : section;
    end.value = Array.from(end.options).some((o) => Number(o.value) === pairEnd) ? String(pairEnd) : String(section);
    const header = board.querySelector(`thead th[data-day="${day}"]`);
    const dayName = header ? header.childNodes[0].textContent.trim() : String(day);
    document.getElementById("event-dialog-when").textContent =
      root.dataset.textDaySection.replace("{day}", dayName).replace("{section}", String(section));
    eventDialog.querySelector("[data-test=event-dialog-error]").hidden = true;
    eventDialog.showModal();
    eventForm.elements.title.focus();
  }

  eventForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    const f = eventForm.elements;
    const body = {
      day: Number(f.day.value), start_section: Number(f.start_section.value), end_section: Number(f.end_section.value),
      title: f.title.value.trim(), location: f.location.value.trim(), note: f.note.value.trim(),
    };
    const weeks = f.weeks.value.trim();
    if (weeks) body.weeks = weeks; else body.week = week;
    const save = eventForm.querySelector("[data-test=event-save]");
    save.disabled = true;
    try {
      await call("POST", "/api/v1/schedule/events/", body);
      window.location.reload();
    } catch (error) {
      showError(eventDialog.querySelector("[data-test=event-dialog-error]"), error.message);
      save.disabled = false;
    }
  });

  // --- A placed block or a custom event ---
  let current = null;

  function openBlock(cell) {
    current = cell;
    const isBlock = Boolean(cell.dataset.blockKind);
    blockDialog.querySelector("[data-test=block-dialog-title]").textContent =
      (cell.querySelector(".event-title, .agenda-title") || cell).textContent.trim();
    blockDialog.querySelector("[data-part=block]").hidden = !isBlock;
    blockDialog.querySelector("[data-part=custom]").hidden = isBlock;
    blockDialog.querySelector("[data-test=event-delete-all]").hidden = cell.dataset.series !== "1";
    const noteKind = cell.dataset.blockKind === "note";
    blockDialog.querySelector("[data-test=block-done]").hidden = noteKind;
    blockDialog.querySelector("[data-test=block-missed]").hidden = noteKind;
    const choices = blockDialog.querySelector("[data-test=move-choices]");
    choices.hidden = true;
    choices.replaceChildren();
    blockDialog.querySelector("[data-test=block-dialog-error]").hidden = true;
    blockDialog.showModal();
  }

  function blockUrl(action) {
    return `/api/v1/board/blocks/${current.dataset.blockKind}/${current.dataset.blockId}/${action}/`;
  }

  async function edit(action, body) {
    try {
      const result = await call("POST", blockUrl(action), body);
      sessionStorage.setItem(UNDO_KEY, JSON.stringify({ id: result.changeset_id, summary: result.summary }));
      window.location.reload();
    } catch (error) {
      showError(blockDialog.querySelector("[data-test=block-dialog-error]"), error.message);
    }
  }

  async function showMoves() {
    const choices = blockDialog.querySelector("[data-test=move-choices]");
    choices.hidden = false;
    choices.textContent = root.dataset.textLoading;
    let data;
    try {
      const response = await fetch(blockUrl("suggestions"), { credentials: "same-origin" });
      data = await response.json();
      if (!response.ok) throw new Error(data.message || root.dataset.textError);
    } catch (error) {
      choices.textContent = "";
      showError(blockDialog.querySelector("[data-test=block-dialog-error]"), error.message);
      return;
    }
    choices.replaceChildren();
    if (!data.suggestions.length) { choices.textContent = root.dataset.textNoPlaces; return; }
    data.suggestions.forEach((slot) => {
      const button = document.createElement("button");
      button.type = "button";
      button.dataset.test = "move-choice";
      const start = (slot.starts_at || "").slice(11, 16);
      const end = (slot.ends_at || "").slice(11, 16);
      button.textContent = `${slot.date} ${start}–${end} (${slot.start_section}–${slot.end_section})`;
      button.addEventListener("click", () => edit("move", {
        week: slot.week, day: slot.day, start_section: slot.start_section, version: (data.block && data.block.version) || "",
      }));
      choices.appendChild(button);
    });
  }

  async function deleteEvent(scope) {
    try {
      await call("DELETE", `/api/v1/schedule/events/${current.dataset.eventId}/?scope=${scope}`);
      window.location.reload();
    } catch (error) {
      showError(blockDialog.querySelector("[data-test=block-dialog-error]"), error.message);
    }
  }

  blockDialog.addEventListener("click", (event) => {
    const button = event.target.closest("[data-action]");
    if (!button || !current) return;
    const action = button.dataset.action;
    if (action === "show-moves") showMoves();
    else if (action === "delete-this") deleteEvent("this");
    else if (action === "delete-all") deleteEvent("all");
    else edit(action, {});
  });

  // --- Opening the dialogs: a click, or Enter / Space on a focused cell ---
  function open(cell) {
    if (cell.classList.contains("free")) openNew(cell);
    else openBlock(cell);
  }
  const targets = document.querySelectorAll("table.board td.free[tabindex], table.board td.event[tabindex], .agenda-item[tabindex]");
  targets.forEach((cell) => {
    cell.addEventListener("click", (event) => {
      if (event.target.closest("button, a, form")) return;
      open(cell);
    });
    cell.addEventListener("keydown", (event) => {
      if (event.key !== "Enter" && event.key !== " ") return;
      event.preventDefault();
      open(cell);
    });
  });

  // --- The undo bar, after the reload that follows an edit ---
  const saved = sessionStorage.getItem(UNDO_KEY);
  if (saved) {
    sessionStorage.removeItem(UNDO_KEY);
    let last = null;
    try { last = JSON.parse(saved); } catch (error) { /* ignore */ }
    if (last && last.id) {
      undoBar.querySelector("[data-test=edit-undo-summary]").textContent = last.summary || "";
      undoBar.hidden = false;
      undoBar.querySelector("[data-test=edit-undo-button]").addEventListener("click", async () => {
        try {
          await call("POST", `/api/v1/changesets/${last.id}/undo/`);
          window.location.reload();
        } catch (error) {
          undoBar.querySelector("[data-test=edit-undo-summary]").textContent = error.message;
        }
      });
    }
  }
  root.dataset.ready = "true";  // for tests: the dialogs answer clicks from now on
})();
