// The installable app (templates/pwa/sw.js is the worker): register the worker, tell it whose agenda to keep
// for offline use (or, signed out, to forget it), show the offline banner on a page the worker served from
// its cache. Signing out does not involve the worker (see the end).
(function () {
  const pocket = document.getElementById("pocket");
  if (!pocket || !("serviceWorker" in navigator)) return;

  function two(n) { return (n < 10 ? "0" : "") + n; }

  // A saved copy reads, it does not write: every form that posts (撤销, 退出登录, filler marks…) and every
  // dialog action is disabled and says why, instead of failing after a click.
  function disableWhatNeedsTheNetwork(why) {
    document.querySelectorAll("form[method=post] button, form[method=post] [type=submit], dialog button[data-action], "
      + "[data-test=edit-undo-button], [data-test=catch-up], [data-needs-network]").forEach((control) => {
      control.disabled = true;
      control.title = why;
      control.dataset.offlineDisabled = "1";
    });
  }

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
    disableWhatNeedsTheNetwork(pocket.dataset.needsNetworkText || "");
    return; // a saved copy: read only, nothing to keep or register
  }

  // Ask the active worker something and wait for its answer; null after ``timeout`` ms, counted from now,
  // also when no worker ever registers (a page must never hang on it).
  function tell(message, timeout) {
    const giveUp = new Promise((resolve) => setTimeout(() => resolve(null), timeout || 5000));
    const asked = navigator.serviceWorker.ready.then((registration) => new Promise((resolve) => {
      const worker = registration.active;
      if (!worker) { resolve(null); return; }
      const channel = new MessageChannel();
      channel.port1.onmessage = (event) => resolve(event.data);
      worker.postMessage(message, [channel.port2]);
    }));
    return Promise.race([asked, giveUp]);
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
  // Signing out is a plain form post and never waits for the worker (one that failed to install would
  // otherwise hold it back): the worker drops the kept agenda when it sees the post pass, and in any case
  // when the next page (the login page) names no session in X-Pocket-Scope.
})();
