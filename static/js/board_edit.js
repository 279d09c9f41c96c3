// Week board direct edits (templates/board/_board_edit.html): a free cell opens a dialog that
// adds an event (this week or repeating) — on a phone, a free row of the day agenda or its "+" does;
// a placed study block or quick note opens a dialog to move it (to a suggested place, or any day and
// section the student picks), remove it or mark it done / not done, then offers to undo; a custom
// event can be deleted (this week or every week). On a desktop a placed block (also one inside a filler
// course) can be dragged to another cell; the server decides, and a refusal shows its message and the
// places that would work in the board's error region. Every refusal shows the server's own message.
(function () {
  const root = document.getElementById("board-edit");
  const board = document.querySelector("table.board");
  if (!root || !board) return;
  const week = Number(root.dataset.week);
  const eventDialog = document.getElementById("event-dialog");
  const eventForm = document.getElementById("event-form");
  const blockDialog = document.getElementById("block-dialog");
  const undoBar = document.getElementById("edit-undo");
  const UNDO_KEY = "smartmate.board.undo";

  function call(method, url, body) {
    return window.Api.request(method, url, { body: body || undefined, fallback: root.dataset.textError });
  }

  // The server's message, and for a form's field errors ("输入无效。") the fields' own words too.
  function describe(error) {
    const fields = Object.values(error.detail || {}).filter((value) => Array.isArray(value)).flat();
    return fields.length ? `${error.message} ${fields.join(" ")}` : error.message;
  }

  function showError(box, message) {
    box.textContent = message;
    box.hidden = false;
  }

  root.querySelectorAll("[data-close]").forEach((button) => {
    button.addEventListener("click", () => button.closest("dialog").close());
  });

  // Closing a dialog (Escape, Cancel, Close) gives focus back to the cell or block that opened it.
  let opener = null;
  [eventDialog, blockDialog].forEach((dialog) => {
    dialog.addEventListener("close", () => {
      if (opener && opener.isConnected) opener.focus();
    });
  });

  // --- The event dialog: a new event in a free cell, or an existing custom event edited ---
  const heading = eventDialog.querySelector("[data-test=event-dialog-heading]");
  const scopeBox = eventDialog.querySelector("[data-test=event-scope]");
  const weeksHelp = eventDialog.querySelector("[data-test=event-weeks-help]");
  const weeksInput = eventForm.elements.weeks;
  const weeksPlaceholder = weeksInput.placeholder;
  let editing = null;  // the custom event's cell while editing, null for a new event

  function dayName(day) {
    const header = board.querySelector(`thead th[data-day="${day}"]`);
    return header ? header.childNodes[0].textContent.trim() : String(day);
  }

  // The last section never comes before the first; a pair (1-2, 3-4...) is the usual length.
  function fitEnd(keep) {
    const start = Number(eventForm.elements.start_section.value);
    const end = eventForm.elements.end_section;
    Array.from(end.options).forEach((option) => { option.disabled = Number(option.value) < start; });
    if (keep && Number(end.value) >= start) return;
    const pairEnd = start % 2 === 1 ? start + 1 : start;
    end.value = Array.from(end.options).some((o) => Number(o.value) === pairEnd) ? String(pairEnd) : String(start);
  }
  eventForm.elements.start_section.addEventListener("change", () => fitEnd(true));

  // Only "all weeks" can change a repeating event's weeks; "only this week" keeps them as they are.
  function syncScope() {
    const all = eventForm.elements.scope.value === "all";
    weeksInput.disabled = Boolean(editing && editing.dataset.series === "1" && !all);
    if (weeksInput.disabled) weeksInput.value = editing.dataset.seriesWeeks || "";
  }
  eventForm.querySelectorAll("input[name=scope]").forEach((radio) => radio.addEventListener("change", syncScope));

  function showEventDialog(cell, day, section) {
    opener = cell;
    document.getElementById("event-dialog-when").textContent =
      root.dataset.textDaySection.replace("{day}", dayName(day)).replace("{section}", String(section));
    eventDialog.querySelector("[data-test=event-dialog-error]").hidden = true;
    eventForm.querySelector("[data-test=event-save]").disabled = false;
    eventDialog.showModal();
    eventForm.elements.title.focus();
  }

  // ``cell``: a free table cell, a free row of the phone's agenda (which ends at data-last-section)
  // or the agenda's "+" (data-day, data-section).
  function openNew(cell) {
    editing = null;
    const day = Number(cell.dataset.day);
    const section = Number(cell.dataset.section);
    const lastFree = Number(cell.dataset.lastSection || 0);
    eventForm.reset();
    heading.textContent = heading.dataset.textNew;
    scopeBox.hidden = true;
    weeksInput.disabled = false;
    weeksInput.placeholder = weeksPlaceholder;
    weeksHelp.textContent = weeksHelp.dataset.textNew;
    eventForm.elements.day.value = String(day);
    eventForm.elements.start_section.value = String(section);
    fitEnd(false);
    // A free row of one section ends there: the usual pair would run into what follows it.
    if (lastFree && Number(eventForm.elements.end_section.value) > lastFree) eventForm.elements.end_section.value = String(lastFree);
    showEventDialog(cell, day, section);
  }

  function openEdit(cell) {
    editing = cell;
    const data = cell.dataset;
    const f = eventForm.elements;
    eventForm.reset();
    heading.textContent = heading.dataset.textEdit;
    f.title.value = data.eventTitle || "";
    f.location.value = data.eventLocation || "";
    f.note.value = data.eventNote || "";
    f.day.value = data.eventDay;
    f.start_section.value = data.startSection;
    f.end_section.value = data.endSection;
    fitEnd(true);
    const repeating = data.series === "1";
    scopeBox.hidden = !repeating;
    weeksInput.value = repeating ? data.seriesWeeks || "" : "";
    weeksInput.placeholder = weeksPlaceholder;
    // Emptying the weeks of a repeating event keeps them (the API changes weeks only when given).
    weeksHelp.textContent = repeating ? weeksHelp.dataset.textEdit : weeksHelp.dataset.textNew;
    syncScope();
    showEventDialog(cell, Number(data.eventDay), Number(data.startSection));
  }

  // What the events API needs: a new event (one week or a week spec) or a change with its scope.
  function eventRequest() {
    const f = eventForm.elements;
    const body = {
      day: Number(f.day.value), start_section: Number(f.start_section.value), end_section: Number(f.end_section.value),
      title: f.title.value.trim(), location: f.location.value.trim(), note: f.note.value.trim(),
    };
    const weeks = weeksInput.value.trim();
    if (!editing) {
      if (weeks) body.weeks = weeks; else body.week = week;
      return ["POST", "/api/v1/schedule/events/", body];
    }
    const repeating = editing.dataset.series === "1";
    body.scope = repeating ? f.scope.value : (weeks ? "all" : "this");
    if (body.scope === "this") body.week = week;
    else if (weeks && weeks !== (editing.dataset.seriesWeeks || "")) body.weeks = weeks;  // empty: weeks stay
    return ["PATCH", `/api/v1/schedule/events/${editing.dataset.eventId}/`, body];
  }

  eventForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    const errorBox = eventDialog.querySelector("[data-test=event-dialog-error]");
    if (!eventForm.elements.title.value.trim()) {
      showError(errorBox, root.dataset.textEmptyTitle);
      eventForm.elements.title.focus();
      return;
    }
    const save = eventForm.querySelector("[data-test=event-save]");
    save.disabled = true;
    const request = eventRequest();
    try {
      remember(await call(...request), null);
      window.location.reload();
    } catch (error) {
      showError(errorBox, describe(error));
      save.disabled = false;
      // js/board_repair.js offers to add it anyway when planned blocks are in the way.
      eventDialog.dispatchEvent(new CustomEvent("smartmate:event-refused", { detail: { request, error } }));
    }
  });

  // --- A placed block or a custom event ---
  let current = null;

  function openBlock(cell) {
    current = cell;
    opener = cell;
    const isBlock = Boolean(cell.dataset.blockKind);
    blockDialog.querySelector("[data-test=block-dialog-title]").textContent =
      (cell.querySelector(".event-title, .agenda-title") || cell).textContent.trim();
    blockDialog.querySelector("[data-part=block]").hidden = !isBlock;
    blockDialog.querySelector("[data-part=custom]").hidden = isBlock;
    blockDialog.querySelector("[data-test=event-delete-all]").hidden = cell.dataset.series !== "1";
    blockDialog.querySelector("[data-test=event-delete-all-confirm]").hidden = true;
    const noteKind = cell.dataset.blockKind === "note";
    blockDialog.querySelector("[data-test=block-done]").hidden = noteKind;
    blockDialog.querySelector("[data-test=block-missed]").hidden = noteKind;
    const choices = blockDialog.querySelector("[data-test=move-choices]");
    choices.hidden = true;
    choices.replaceChildren();
    picker.hidden = true;
    blockDialog.querySelector("[data-test=block-dialog-error]").hidden = true;
    const catchUp = blockDialog.querySelector("[data-test=block-catch-up-form]");
    catchUp.hidden = !(cell.dataset.blockKind === "item" && cell.dataset.blockStatus === "missed" &&
      cell.dataset.blockBegun === "1");  // one still ahead keeps its place until its time (or Move to…)
    catchUp.elements.item_id.value = catchUp.hidden ? "" : cell.dataset.blockId;
    const pin = blockDialog.querySelector("[data-test=block-pin]");
    pin.hidden = true;
    if (isBlock) showPin(cell, pin);
    blockDialog.showModal();
  }

  // The pin toggle (a pinned block is neither moved nor removed): its state is read when the dialog opens.
  async function showPin(cell, pin) {
    try {
      const block = await call("GET", `/api/v1/board/blocks/${cell.dataset.blockKind}/${cell.dataset.blockId}/`);
      if (current !== cell) return;
      pin.dataset.pinned = block.pinned ? "1" : "";
      pin.textContent = block.pinned ? pin.dataset.textUnpin : pin.dataset.textPin;
      pin.hidden = false;
    } catch (error) { /* no toggle: the rest of the dialog still works */ }
  }

  async function togglePin(pin) {
    try {
      await call(pin.dataset.pinned ? "DELETE" : "POST", blockUrl("pin"));
      window.location.reload();
    } catch (error) {
      showError(blockDialog.querySelector("[data-test=block-dialog-error]"), error.message);
    }
  }

  function blockUrl(action) {
    return urlOf(current, action);
  }

  function urlOf(block, action) {
    return `/api/v1/board/blocks/${block.dataset.blockKind}/${block.dataset.blockId}/${action}/`;
  }

  async function edit(action, body) {
    try {
      const result = await call("POST", blockUrl(action), body);
      remember(result, current);
      window.location.reload();
    } catch (error) {
      showError(blockDialog.querySelector("[data-test=block-dialog-error]"), error.message);
    }
  }

  // The undo bar shows after the reload that redraws the board; the edited block gets the focus back
  // (an own event's change has no block to focus: the undo button gets it).
  function remember(result, block) {
    if (!result || !result.changeset_id) return;
    sessionStorage.setItem(UNDO_KEY, JSON.stringify({
      id: result.changeset_id, summary: result.summary,
      kind: block ? block.dataset.blockKind : "", block: block ? block.dataset.blockId : "",
    }));
  }

  async function showMoves() {
    const choices = blockDialog.querySelector("[data-test=move-choices]");
    picker.hidden = true;
    choices.hidden = false;
    choices.textContent = root.dataset.textLoading;
    let data;
    try {
      data = await call("GET", blockUrl("suggestions"));
    } catch (error) {
      choices.textContent = "";
      showError(blockDialog.querySelector("[data-test=block-dialog-error]"), error.message);
      return;
    }
    choices.replaceChildren();
    showPicker(data.block);
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

  // --- "Move to…" any day and section: each pick is checked by the move API's dry run (is it free, or
  // why not), "Move here" moves; a refusal shows beside the picker, not in the page's bar ---
  const picker = blockDialog.querySelector("[data-test=move-pick]");
  const pickError = picker.querySelector("[data-test=move-pick-error]");
  const pickOk = picker.querySelector("[data-test=move-pick-ok]");
  const DAY_MS = 86400000;
  let pickVersion = "";

  function utcDay(iso) {
    const [y, m, d] = iso.split("-").map(Number);
    return Date.UTC(y, m - 1, d);
  }

  function isoOf(ms) {
    return new Date(ms).toISOString().slice(0, 10);
  }

  // A date as the semester's (week, day), counted from this board's Monday (data-monday).
  function weekDayOf(iso) {
    const days = Math.round((utcDay(iso) - utcDay(root.dataset.monday)) / DAY_MS);
    return { week: week + Math.floor(days / 7), day: ((days % 7) + 7) % 7 + 1 };
  }

  function showPicker(block) {
    const first = utcDay(root.dataset.monday) - (week - 1) * 7 * DAY_MS;
    picker.elements.date.min = isoOf(first);
    picker.elements.date.max = isoOf(first + (Number(root.dataset.weeks) * 7 - 1) * DAY_MS);
    picker.elements.date.value = (block && block.date) || "";
    if (block && block.start_section) picker.elements.section.value = String(block.start_section);
    pickVersion = (block && block.version) || "";
    pickError.hidden = true;
    pickOk.hidden = true;
    picker.querySelector("[data-test=move-pick-go]").disabled = false;
    picker.hidden = false;
  }

  // The picked place as the move API takes it, null without a day.
  function pickedPlace(allowReorder) {
    const date = picker.elements.date.value;
    if (!date) return null;
    const at = weekDayOf(date);
    return { week: at.week, day: at.day, start_section: Number(picker.elements.section.value), version: pickVersion,
      allow_reorder: Boolean(allowReorder) };
  }

  function showPickRefusal(error, allowReorder) {
    const retry = error.code === "order_broken" && !allowReorder ? () => pickMove(true) : null;
    showRefusal(pickError, "move-pick", error.message, error.detail && error.detail.suggestions, retry,
      (spot) => edit("move", { week: spot.week, day: spot.day, start_section: spot.start_section, version: pickVersion }));
  }

  let checking = 0;  // only the latest pick's answer is shown
  async function checkPick() {
    pickError.hidden = true;
    pickOk.hidden = true;
    const place = pickedPlace(false);
    if (!place) return;
    const ticket = ++checking;
    try {
      const answer = await call("POST", blockUrl("move"), { ...place, dry_run: true });
      if (ticket !== checking) return;
      pickOk.textContent = root.dataset.textPlaceFree.replace("{place}", answer.place.text);
      pickOk.hidden = false;
    } catch (error) {
      if (ticket === checking) showPickRefusal(error, false);
    }
  }
  picker.elements.date.addEventListener("change", checkPick);
  picker.elements.section.addEventListener("change", checkPick);

  async function pickMove(allowReorder) {
    const go = picker.querySelector("[data-test=move-pick-go]");
    pickError.hidden = true;
    pickOk.hidden = true;
    const place = pickedPlace(allowReorder);
    if (!place) { showRefusal(pickError, "move-pick", root.dataset.textPickDay, [], null); return; }
    checking += 1;  // a check still on its way must not cover this move's answer
    go.disabled = true;
    try {
      remember(await call("POST", blockUrl("move"), place), current);
      window.location.reload();
    } catch (error) {
      go.disabled = false;
      showPickRefusal(error, allowReorder);
    }
  }
  picker.addEventListener("submit", (event) => { event.preventDefault(); pickMove(false); });

  // Deleting every week is destructive: the dialog asks once more before it (undo stays offered after).
  function confirmDeleteAll(show) {
    blockDialog.querySelector("[data-test=event-delete-all-confirm]").hidden = !show;
    if (show) blockDialog.querySelector("[data-test=event-delete-all-yes]").focus();
  }

  async function deleteEvent(scope) {
    try {
      remember(await call("DELETE", `/api/v1/schedule/events/${current.dataset.eventId}/?scope=${scope}`), null);
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
    else if (action === "edit-event") { blockDialog.close(); openEdit(current); }
    else if (action === "delete-this") deleteEvent("this");
    else if (action === "delete-all") confirmDeleteAll(true);
    else if (action === "delete-all-cancel") confirmDeleteAll(false);
    else if (action === "delete-all-confirmed") deleteEvent("all");
    else if (action === "pin") togglePin(button);
    else edit(action, {});
  });

  // --- Opening the dialogs: a click, or Enter / Space on a focused cell ---
  function open(cell) {
    if (cell.classList.contains("free")) openNew(cell);
    else openBlock(cell);
  }
  document.querySelectorAll("[data-test=agenda-add]").forEach((button) => {
    button.addEventListener("click", () => openNew(button));
  });
  const targets = document.querySelectorAll(
    "table.board td.free[tabindex], table.board td.event[tabindex], .agenda-item[tabindex], .embedded[data-block-kind]");
  targets.forEach((cell) => {
    cell.addEventListener("click", (event) => {
      if (event.target.closest("button, a, form")) return;
      event.stopPropagation();  // a block inside a filler course opens itself, not the course
      open(cell);
    });
    cell.addEventListener("keydown", (event) => {
      if (event.key !== "Enter" && event.key !== " ") return;
      if (event.target !== cell) return;  // Enter on a block inside the cell is that block's
      event.preventDefault();
      event.stopPropagation();
      open(cell);
    });
  });

  // --- Dragging a placed block to another cell (desktop) ---
  const errorBox = document.getElementById("board-error");

  function hideBoardError() { errorBox.hidden = true; }

  // A refused move: the core's message and, when it has some, the places that would work (each a
  // button that moves the block there, through the same API). ``box`` holds [data-test=<name>-message]
  // and [data-test=<name>-suggestions]: the board's bar after a drop, the picker's after a pick.
  function showRefusal(box, name, message, suggestions, retry, go) {
    box.querySelector(`[data-test=${name}-message]`).textContent = message;
    const list = box.querySelector(`[data-test=${name}-suggestions]`);
    list.replaceChildren();
    if (retry) {  // the plan's order was the only reason: the student may allow breaking it
      const button = document.createElement("button");
      button.type = "button";
      button.dataset.test = `${name}-reorder`;
      button.textContent = root.dataset.textReorder;
      button.addEventListener("click", retry);
      list.appendChild(button);
    }
    (suggestions || []).forEach((spot) => {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "link-button";
      button.dataset.test = `${name}-suggestion`;
      button.textContent = spot.text;
      button.addEventListener("click", () => go(spot));
      list.appendChild(button);
    });
    box.hidden = false;
    box.scrollIntoView({ block: "nearest" });  // in a long dialog on a phone, the reason stays in sight
  }

  function showBoardError(message, suggestions, block, retry) {
    showRefusal(errorBox, "board-error", message, suggestions, retry,
      (spot) => moveBlock(block, spot.week, spot.day, spot.start_section));
  }
  errorBox.querySelector("[data-close-error]").addEventListener("click", hideBoardError);

  async function moveBlock(block, toWeek, day, startSection, allowReorder) {
    hideBoardError();
    board.setAttribute("aria-busy", "true");
    try {
      const result = await call("POST", urlOf(block, "move"), {
        week: toWeek, day, start_section: startSection, version: block.dataset.blockVersion || "",
        allow_reorder: Boolean(allowReorder),
      });
      remember(result, block);
      window.location.reload();
    } catch (error) {
      board.removeAttribute("aria-busy");
      const retry = error.code === "order_broken" && !allowReorder
        ? () => moveBlock(block, toWeek, day, startSection, true) : null;
      showBoardError(error.message, error.detail && error.detail.suggestions, block, retry);
    }
  }

  // Blocks are pairs of sections: a drop anywhere in a pair means the pair's first section (as in
  // a preview); a block of odd length starts where it is dropped.
  function startOf(block, cell) {
    const section = Number(cell.dataset.section);
    const length = block.tagName === "TD" ? block.rowSpan : 2;
    return length % 2 === 0 && section % 2 === 0 ? section - 1 : section;
  }

  let dragged = null;
  board.querySelectorAll("[data-block-kind][draggable=true]").forEach((block) => {
    block.addEventListener("dragstart", (event) => {
      event.stopPropagation();
      dragged = block;
      event.dataTransfer.setData("text/plain", `${block.dataset.blockKind}:${block.dataset.blockId}`);
      event.dataTransfer.effectAllowed = "move";
      block.classList.add("dragging");
    });
    block.addEventListener("dragend", () => {
      block.classList.remove("dragging");
      board.querySelectorAll(".drop-target").forEach((cell) => cell.classList.remove("drop-target"));
      dragged = null;
    });
  });
  // Every cell takes the drop; the server accepts it (a free cell, a filler course that embeds the
  // block) or says why not (a course, another block, a block that has begun...).
  board.querySelectorAll("tbody td[data-day][data-section]").forEach((cell) => {
    cell.addEventListener("dragover", (event) => {
      if (!dragged) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = "move";
      cell.classList.add("drop-target");
    });
    cell.addEventListener("dragleave", () => cell.classList.remove("drop-target"));
    cell.addEventListener("drop", (event) => {
      if (!dragged) return;
      event.preventDefault();
      cell.classList.remove("drop-target");
      const block = dragged;
      const start = startOf(block, cell);
      if (block === cell && start === Number(cell.dataset.section)) return;  // dropped where it was
      moveBlock(block, week, Number(cell.dataset.day), start);
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
      const banner = document.querySelector(`[data-test=undo-banner][data-changeset="${last.id}"]`);
      if (banner) banner.hidden = true;  // the same change, said once
      const edited = last.block && Array.from(document.querySelectorAll(
        `[data-block-kind="${last.kind}"][data-block-id="${last.block}"]`)).find((el) => el.offsetParent !== null);
      (edited || undoBar.querySelector("[data-test=edit-undo-button]")).focus({ preventScroll: true });
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
  // A link naming a block (the bell's "missed blocks" item: ?block=item-12) brings it into view and lights it up.
  const named = /^(item|note)-(\d+)$/.exec(new URLSearchParams(window.location.search).get("block") || "");
  if (named) {
    const target = Array.from(document.querySelectorAll(`[data-block-kind="${named[1]}"][data-block-id="${named[2]}"]`))
      .find((el) => el.offsetParent !== null);
    if (target) {
      target.classList.add("spotlight");
      target.scrollIntoView({ block: "center" });
      target.focus({ preventScroll: true });
    }
  }
  root.dataset.ready = "true";  // for tests: the dialogs answer clicks from now on
})();
