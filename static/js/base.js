// Behaviour every page shares, wired here because the Content-Security-Policy forbids inline handlers.
(function () {
  // The language menu switches as soon as a language is picked (a <noscript> button does it without JS).
  document.querySelectorAll("select[data-submit-on-change]").forEach((select) => {
    select.addEventListener("change", () => select.form.submit());
  });
  // Read-only addresses to copy (the calendar feed): one click selects the whole of it.
  document.querySelectorAll("input[data-select-on-click]").forEach((input) => {
    input.addEventListener("click", () => input.select());
  });
})();
