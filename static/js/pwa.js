// The installable app (templates/pwa/sw.js is the worker): register the worker, tell it whose agenda to keep
// for offline use (or, signed out, to forget it), show the offline banner on a page the worker served from
// its cache, and make signing out wipe the cache before the session ends.
(function () {
  const pocket = document.getElementById("pocket");
  if (!pocket || !("serviceWorker" in navigator)) return;

  function two(n) { return (n < 10 ? "0" : "") + n; }

  const saved = document.body.dataset.offlineSaved;
  if (saved !== undefined) {
    const when = new Date(saved);
    const time = isNaN(when) ? "?" : two(when.getHours()) + ":" + two(when.getMinutes());
    const banner = document.createElement("div");
    banner.className = "offline-banner";
    banner.setAttribute("role", "status");
    banner.dataset.test = "offline-banner";
    banner.textContent = pocket.dataset.offlineText.replace("__TIME__", time);
    document.body.prepend(banner);
    document.documentElement.classList.add("is-offline");
    return; // a saved copy: read only, nothing to keep or register
  }

  // Ask the active worker something and wait for its answer (or give up after a while).
  function tell(message, timeout) {
    return navigator.serviceWorker.ready.then((registration) => new Promise((resolve) => {
      const worker = registration.active;
      if (!worker) { resolve(null); return; }
      const channel = new MessageChannel();
      const timer = setTimeout(() => resolve(null), timeout || 5000);
      channel.port1.onmessage = (event) => { clearTimeout(timer); resolve(event.data); };
      worker.postMessage(message, [channel.port2]);
    }));
  }
  window.SmartMatePocket = { tell };

  navigator.serviceWorker.register(pocket.dataset.sw, { scope: "/" }).catch(() => {});

  const scope = pocket.dataset.scope;
  if (scope) {
    tell({ type: "keep", scope, urls: JSON.parse(pocket.dataset.offlineUrls || "[]") }, 15000)
      .then((answer) => { if (answer) document.documentElement.dataset.offlineKept = answer.savedAt || ""; });
  } else {
    tell({ type: "forget" }); // signed out (or never in): nothing of anyone's stays on this device
  }

  // Signing out: the worker drops the saved agenda first (it also does when it sees the sign-out request).
  document.querySelectorAll("form[action$='/logout/']").forEach((form) => {
    form.addEventListener("submit", (event) => {
      if (form.dataset.forgotten) return;
      event.preventDefault();
      tell({ type: "forget" }, 2000).finally(() => { form.dataset.forgotten = "1"; form.submit(); });
    });
  });
})();
