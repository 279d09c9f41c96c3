// The reminders bell (templates/_bell.html): a per-student notifications socket (/ws/notifications/)
// announces each reminder once per open tab; the list, read state and "mark all read" go through the API.
// A reminder made while no page listened (the student between two pages) arrives in the next page's
// hello as "fresh" and is announced there, once per device: announced ids are remembered in localStorage.
(function () {
  const root = document.querySelector("[data-bell]");
  if (!root) return;
  const button = root.querySelector(".bell-button");
  const count = root.querySelector(".bell-count");
  const panel = root.querySelector(".bell-panel");
  const list = root.querySelector(".bell-list");
  const toast = root.querySelector(".bell-toast");
  const seen = new Map(); // id -> reminder, so a reconnect's hello never announces one twice
  let unread = 0;
  // 1 s doubling to 30 s with jitter, reset by a socket that stayed open 10 s (static/js/reconnect.js).
  const reconnect = window.Reconnect.backoff({ baseMs: 1000, capMs: 30000, stableMs: 10000 });
  let toastTimer = null;
  const ANNOUNCED_KEY = "sm-bell-announced";
  const ANNOUNCED_KEPT = 50;

  function announcedIds() {
    try { return JSON.parse(window.localStorage.getItem(ANNOUNCED_KEY) || "[]"); } catch (error) { return []; }
  }

  function markAnnounced(ids) {
    const kept = announcedIds().filter((id) => !ids.includes(id)).concat(ids).slice(-ANNOUNCED_KEPT);
    try { window.localStorage.setItem(ANNOUNCED_KEY, JSON.stringify(kept)); } catch (error) { /* private mode */ }
  }

  // The bell shows no refusal of its own: an answer that did not come leaves the list as it was.
  function quietly(method, url) {
    return window.Api.request(method, url).catch(() => null);
  }

  function setUnread(value) {
    unread = Math.max(0, value);
    count.textContent = String(unread);
    count.hidden = unread === 0;
    button.setAttribute("aria-label", root.dataset.unreadLabel.replace("__N__", String(unread)));
  }

  function render() {
    list.textContent = "";
    const items = Array.from(seen.values()).sort((a, b) => b.id - a.id);
    if (!items.length) {
      const empty = document.createElement("li");
      empty.className = "bell-empty";
      empty.textContent = root.dataset.emptyText;
      list.append(empty);
    }
    items.forEach((reminder) => {
      const item = document.createElement("li");
      item.className = "bell-item" + (reminder.read ? " read" : "");
      item.dataset.test = "bell-item";
      item.dataset.kind = reminder.kind;
      const link = document.createElement("a");
      link.href = reminder.link || "#";
      link.textContent = reminder.text;
      link.addEventListener("click", (event) => {
        if (reminder.read) return;
        event.preventDefault();
        quietly("POST", root.dataset.readUrl.replace("/0/", "/" + reminder.id + "/")).finally(() => { window.location = link.href; });
      });
      item.append(link);
      list.append(item);
    });
  }

  function remember(reminders) {
    reminders.forEach((reminder) => seen.set(reminder.id, reminder));
  }

  function announce(reminder) {
    if (reminder.silent) return; // quiet hours: listed, never announced
    markAnnounced([reminder.id]);
    toast.textContent = "🔔 " + reminder.text;
    toast.hidden = false;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => { toast.hidden = true; }, 12000);
  }

  function onFrame(frame) {
    if (frame.type === "hello") {
      const already = announcedIds();
      const news = frame.reminders.filter((r) => (frame.fresh || []).includes(r.id) && !seen.has(r.id)
        && !already.includes(r.id));
      remember(frame.reminders);
      setUnread(frame.unread_count);
      render();
      if (news.length) { // newest first: the toast tells the latest, the bell's count the rest
        markAnnounced(news.map((r) => r.id));
        announce(news[0]);
      }
    } else if (frame.type === "reminder") {
      const fresh = !seen.has(frame.reminder.id);
      remember([frame.reminder]);
      setUnread(frame.unread_count);
      render();
      if (fresh) announce(frame.reminder);
    }
  }

  function connect() {
    const scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
    const socket = new WebSocket(scheme + window.location.host + root.dataset.ws);
    socket.addEventListener("open", () => { reconnect.opened(); root.dataset.live = "1"; });
    socket.addEventListener("message", (event) => {
      try { onFrame(JSON.parse(event.data)); } catch (error) { /* a malformed frame is ignored */ }
    });
    socket.addEventListener("close", (event) => {
      root.dataset.live = "0";
      if (event.code === 4401) return; // signed out
      if (event.code === 4408) return; // a newer tab of this student took this socket's place
      setTimeout(connect, reconnect.nextDelay());
    });
  }

  function refresh() {
    quietly("GET", root.dataset.listUrl)
      .then((data) => {
        if (!data) return;
        seen.clear();
        remember(data.reminders);
        setUnread(data.unread_count);
        render();
      })
      .catch(() => {});
  }

  function toggle(open) {
    panel.hidden = !open;
    button.setAttribute("aria-expanded", open ? "true" : "false");
    if (open) refresh();
  }

  button.addEventListener("click", () => toggle(panel.hidden));
  document.addEventListener("keydown", (event) => { if (event.key === "Escape" && !panel.hidden) toggle(false); });
  document.addEventListener("click", (event) => { if (!panel.hidden && !root.contains(event.target)) toggle(false); });
  toast.addEventListener("click", () => { toast.hidden = true; toggle(true); });
  root.querySelector("[data-bell-read-all]").addEventListener("click", () => {
    quietly("POST", root.dataset.readAllUrl).then((data) => {
      if (!data) return;
      seen.clear();
      remember(data.reminders);
      setUnread(data.unread_count);
      render();
    });
  });
  render();
  if (navigator.onLine !== false && !document.body.dataset.offlineSaved) connect();
})();
