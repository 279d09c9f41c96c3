// "Why is it here?" on the week board: a tap on a block's "?" opens a small popover with its reason
// (a hover shows the same sentence as the button's title). One popover at a time; Escape, a tap
// elsewhere or a second tap on the same "?" closes it.
(function () {
  "use strict";
  let popover = null;
  let owner = null;

  function close() {
    if (popover) popover.remove();
    popover = null;
    owner = null;
  }

  function open(button) {
    close();
    popover = document.createElement("div");
    popover.className = "reason-popover";
    popover.dataset.test = "reason-popover";
    popover.setAttribute("role", "status");
    popover.textContent = button.dataset.reason;
    document.body.appendChild(popover);
    const box = button.getBoundingClientRect();
    const width = Math.min(280, document.documentElement.clientWidth - 16);
    popover.style.maxWidth = `${width}px`;
    const left = Math.max(8, Math.min(box.left + window.scrollX, window.scrollX + document.documentElement.clientWidth - width - 8));
    popover.style.left = `${left}px`;
    popover.style.top = `${box.bottom + window.scrollY + 4}px`;
    owner = button;
  }

  document.addEventListener("click", (event) => {
    const button = event.target.closest(".reason-button");
    if (!button) { if (!event.target.closest(".reason-popover")) close(); return; }
    event.preventDefault();
    event.stopPropagation();  // the block's own dialog stays closed
    if (owner === button) close(); else open(button);
  }, true);
  document.addEventListener("keydown", (event) => { if (event.key === "Escape") close(); });
})();
