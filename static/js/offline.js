// The offline page (templates/pwa/offline.html): list the agenda pages the service worker kept, so the student
// can open them; "Try again" reloads the address she asked for (the worker serves it when the network is back).
(function () {
  const box = document.querySelector("[data-test=offline-kept]");
  const nothing = document.querySelector("[data-test=offline-nothing-kept]");
  // Only on her tap: a reload of its own when the network returns would cut across wherever she goes next.
  document.querySelector("[data-retry]").addEventListener("click", () => window.location.reload());

  function label(path) {
    const week = new URLSearchParams(path.split("?")[1] || "").get("week");
    return week ? `${box.dataset.agenda}?week=${week}` : box.dataset.agenda;
  }

  function show(urls) {
    if (!urls.length) { nothing.hidden = false; return; }
    const list = box.querySelector("ul");
    urls.forEach((path) => {
      const item = document.createElement("li");
      const link = document.createElement("a");
      link.href = path;
      link.textContent = label(path);
      link.dataset.test = "offline-kept-link";
      item.append(link);
      list.append(item);
    });
    box.hidden = false;
  }

  if (!("serviceWorker" in navigator) || !navigator.serviceWorker.controller) { show([]); return; }
  const channel = new MessageChannel();
  channel.port1.onmessage = (event) => show((event.data && event.data.urls) || []);
  navigator.serviceWorker.controller.postMessage({ type: "kept" }, [channel.port2]);
  setTimeout(() => { if (box.hidden && nothing.hidden) show([]); }, 3000);
})();
