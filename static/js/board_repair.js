// A new event refused because planned study blocks sit there (js/board_edit.js tells us): offer to add
// it anyway. The blocks make way (one undoable change) and a repair preview places them again, moving
// as few other blocks as possible; the board opens on that preview to apply it.
(function () {
  "use strict";
  const dialog = document.getElementById("event-dialog");
  const texts = document.getElementById("heal-texts");
  if (!dialog || !texts) return;
  const BLOCK_KINDS = ["task_item", "quick_note"];

  function clear() {
    const old = dialog.querySelector("[data-test=event-over-blocks]");
    if (old) old.remove();
  }

  async function addAnyway(body, button, errorBox) {
    button.disabled = true;
    let data;
    try {
      data = await window.Api.request("POST", "/api/v1/repairs/event/", { body, fallback: texts.dataset.textError });
    } catch (refused) {
      errorBox.textContent = refused.message;
      errorBox.hidden = false;
      button.disabled = false;
      return;
    }
    const url = new URL(window.location.href);
    url.search = "";
    url.searchParams.set("week", String(body.week));
    if (data.preview) url.searchParams.set("preview", String(data.preview.id));
    window.location.assign(url.toString());
  }

  dialog.addEventListener("smartmate:event-refused", (event) => {
    clear();
    const [method, url, body] = event.detail.request;
    const error = event.detail.error;
    const occupant = error.detail && error.detail.occupant;
    if (method !== "POST" || !url.endsWith("/schedule/events/") || !body.week) return;
    if (error.code !== "slot_taken" || !occupant || !BLOCK_KINDS.includes(occupant.kind)) return;
    const errorBox = dialog.querySelector("[data-test=event-dialog-error]");
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.test = "event-over-blocks";
    button.textContent = texts.dataset.textEventOverBlocks;
    button.addEventListener("click", () => addAnyway(body, button, errorBox));
    errorBox.after(button);
  });
  dialog.addEventListener("close", clear);
})();
