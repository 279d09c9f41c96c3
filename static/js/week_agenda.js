// Week board on a phone: one day at a time (the agenda app.css shows under 600 px). Previous/next day
// buttons and a 7-day strip switch days; a swipe does too; past either end of the week they open the
// neighbouring week. The day shown is kept in the address (?day=), so a reload stays on it.
(function () {
  const agenda = document.querySelector("[data-test=agenda]");
  if (!agenda) return;
  const days = Array.from(agenda.querySelectorAll("[data-test=agenda-day]"));
  const strip = Array.from(agenda.querySelectorAll("[data-test=agenda-strip] button"));
  const current = agenda.querySelector("[data-agenda-current]");
  const prev = agenda.querySelector("[data-test=agenda-prev]");
  const next = agenda.querySelector("[data-test=agenda-next]");
  const prevUrl = agenda.dataset.prevUrl;
  const nextUrl = agenda.dataset.nextUrl;
  let shown = Number((days.find((day) => !day.hidden) || days[0]).dataset.day);

  function show(number) {
    shown = number;
    days.forEach((day) => { day.hidden = Number(day.dataset.day) !== number; });
    strip.forEach((button) => button.setAttribute("aria-pressed", String(Number(button.dataset.day) === number)));
    const panel = days.find((day) => Number(day.dataset.day) === number);
    if (panel && current) current.textContent = panel.dataset.title;
    prev.disabled = number === 1 && !prevUrl;
    next.disabled = number === 7 && !nextUrl;
    const params = new URLSearchParams(window.location.search);
    params.set("day", String(number));
    window.history.replaceState(null, "", "?" + params.toString());
  }

  function step(delta) {
    const target = shown + delta;
    if (target < 1) { if (prevUrl) window.location.search = prevUrl; return; }
    if (target > 7) { if (nextUrl) window.location.search = nextUrl; return; }
    show(target);
  }

  prev.addEventListener("click", () => step(-1));
  next.addEventListener("click", () => step(1));
  strip.forEach((button) => button.addEventListener("click", () => show(Number(button.dataset.day))));

  // A horizontal swipe over the day: left for the next day, right for the previous one.
  let touch = null;
  agenda.addEventListener("touchstart", (event) => {
    touch = event.touches.length === 1 ? { x: event.touches[0].clientX, y: event.touches[0].clientY } : null;
  }, { passive: true });
  agenda.addEventListener("touchend", (event) => {
    if (!touch || !event.changedTouches.length) return;
    const dx = event.changedTouches[0].clientX - touch.x;
    const dy = event.changedTouches[0].clientY - touch.y;
    touch = null;
    if (Math.abs(dx) > 60 && Math.abs(dx) > 2 * Math.abs(dy)) step(dx < 0 ? 1 : -1);
  }, { passive: true });

  prev.disabled = shown === 1 && !prevUrl;
  next.disabled = shown === 7 && !nextUrl;
})();
