// The chat page: conversation list, a websocket to /ws/agent/, answers streamed as they arrive,
// reconnect with replay. The protocol is documented in agent/contracts.py. Text is never parsed
// as HTML: it is set with textContent and shown with pre-wrap line breaks.
(function () {
  "use strict";
  const config = JSON.parse(document.getElementById("chat-config").textContent);
  const text = JSON.parse(document.getElementById("chat-strings").textContent);
  const csrf = (document.querySelector("input[name=csrfmiddlewaretoken]") || {}).value || "";
  const $ = (id) => document.getElementById(id);
  const list = $("chat-list"), messages = $("chat-messages"), input = $("chat-input");
  const hello = $("chat-hello");
  const status = $("chat-status"), errorBox = $("chat-error"), sendButton = $("chat-send"), stopButton = $("chat-stop");

  let conversations = config.conversations.slice();
  let currentId = config.conversationId;
  let lastSeq = 0;
  let running = false;
  let socket = null;
  let retries = 0;
  let closedForGood = false;
  const bubbles = new Map(); // turn id -> the assistant bubble being written

  // --- small helpers ---------------------------------------------------------------------------

  function el(tag, className, content) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (content !== undefined) node.textContent = content;
    return node;
  }

  function setStatus(message) { status.textContent = message || ""; }

  function showError(message) {
    errorBox.textContent = message || "";
    errorBox.hidden = !message;
  }

  function setRunning(value) {
    running = value;
    sendButton.disabled = value;
    stopButton.hidden = !value;
  }

  async function api(method, url, body) {
    const response = await fetch(url, {
      method, credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf, "Accept": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) {
      let problem = null;
      try { problem = await response.json(); } catch (ignored) { /* not JSON */ }
      throw new Error((problem && problem.message) || text.requestFailed);
    }
    return response.status === 204 ? null : response.json();
  }

  const conversationUrl = (id) => `${config.api}${id}/`;

  // --- conversation list -----------------------------------------------------------------------

  function renderList() {
    list.replaceChildren();
    $("chat-list-empty").hidden = conversations.length > 0;
    for (const conversation of conversations) {
      const item = el("li", "chat-item" + (conversation.id === currentId ? " active" : ""));
      item.dataset.conversationId = conversation.id;
      item.dataset.test = "chat-item";
      const open = el("button", "chat-item-title link-button", conversation.title || text.untitled);
      open.type = "button";
      open.addEventListener("click", () => openConversation(conversation.id));
      const rename = el("button", "chat-item-action link-button", text.rename);
      rename.type = "button";
      rename.dataset.test = "chat-rename";
      rename.addEventListener("click", () => renameConversation(conversation));
      const archive = el("button", "chat-item-action link-button", text.archive);
      archive.type = "button";
      archive.dataset.test = "chat-archive";
      archive.addEventListener("click", () => archiveConversation(conversation));
      item.append(open, rename, archive);
      list.append(item);
    }
    const current = conversations.find((c) => c.id === currentId);
    $("chat-title").textContent = current ? (current.title || text.untitled) : text.untitled;
  }

  async function renameConversation(conversation) {
    const title = window.prompt(text.renamePrompt, conversation.title);
    if (title === null) return;
    try {
      Object.assign(conversation, await api("PATCH", conversationUrl(conversation.id), { title }));
      renderList();
    } catch (error) { showError(error.message); }
  }

  async function archiveConversation(conversation) {
    try {
      await api("POST", `${conversationUrl(conversation.id)}archive/`, { archived: true });
      conversations = conversations.filter((c) => c.id !== conversation.id);
      if (conversation.id === currentId) startBlank();
      renderList();
    } catch (error) { showError(error.message); }
  }

  function startBlank() {
    currentId = null;
    lastSeq = 0;
    bubbles.clear();
    messages.replaceChildren(hello);
    setRunning(false);
    setStatus("");
    window.history.replaceState(null, "", config.page);
    renderList();
    input.focus();
  }

  async function openConversation(id) {
    showError("");
    try {
      const detail = await api("GET", conversationUrl(id));
      currentId = id;
      bubbles.clear();
      messages.replaceChildren();
      for (const message of detail.messages) addMessage(message.role, message.content, message.reasoning);
      // A running turn's answer so far is rebuilt from its stored events.
      lastSeq = detail.running_turn ? detail.running_turn.after_seq : detail.last_seq;
      setRunning(Boolean(detail.running_turn));
      setStatus("");
      const known = conversations.find((c) => c.id === id);
      if (known) Object.assign(known, detail.conversation); else conversations.unshift(detail.conversation);
      window.history.replaceState(null, "", `${config.page}${id}/`);
      renderList();
      follow();
    } catch (error) { showError(error.message); }
  }

  // --- messages ----------------------------------------------------------------------------------

  function addMessage(role, content, reasoning) {
    hello.remove();
    const bubble = el("div", `chat-msg ${role}`);
    bubble.dataset.test = role === "user" ? "chat-user-message" : "chat-assistant-message";
    const thinking = el("details", "chat-reasoning");
    thinking.append(el("summary", "", text.reasoning), el("div", "chat-reasoning-text", reasoning || ""));
    thinking.hidden = !reasoning;
    const body = el("div", "chat-text", content || "");
    const meta = el("div", "chat-meta muted");
    bubble.append(thinking, body, meta);
    messages.append(bubble);
    messages.scrollTop = messages.scrollHeight;
    return bubble;
  }

  function bubbleFor(turnId) {
    if (!bubbles.has(turnId)) bubbles.set(turnId, addMessage("assistant", ""));
    return bubbles.get(turnId);
  }

  function append(bubble, selector, piece) {
    const target = bubble.querySelector(selector);
    target.textContent += piece;
    messages.scrollTop = messages.scrollHeight;
  }

  // --- events from the server --------------------------------------------------------------------

  function onEvent(event) {
    if (event.seq === undefined) { // an error frame answering one of our frames
      showError(event.message);
      if (event.code === "busy") setRunning(true);
      else if (!bubbles.size) setRunning(false);
      if (event.code !== "busy") setStatus("");
      return;
    }
    if (event.conversation_id !== currentId || event.seq <= lastSeq) return;
    if (event.seq > lastSeq + 1) { send({ type: "replay", conversation_id: currentId, after_seq: lastSeq }); return; }
    lastSeq = event.seq;
    const handler = handlers[event.type];
    if (handler) handler(event);
  }

  const handlers = {
    "status": (event) => {
      setRunning(true);
      setStatus(event.message);
      if (event.code === "resumed") { // the turn restarts a node: drop the half-written answer
        bubbles.get(event.turn_id)?.remove();
        bubbles.delete(event.turn_id);
      }
    },
    "assistant.delta": (event) => { setRunning(true); append(bubbleFor(event.turn_id), ".chat-text", event.text); },
    "reasoning.delta": (event) => {
      const bubble = bubbleFor(event.turn_id);
      bubble.querySelector(".chat-reasoning").hidden = false;
      append(bubble, ".chat-reasoning-text", event.text);
    },
    "usage": (event) => {
      const meta = bubbles.get(event.turn_id)?.querySelector(".chat-meta");
      if (meta) meta.textContent = `${event.total_tokens} ${text.tokens}`;
    },
    "error": (event) => showError(event.message),
    "turn.done": (event) => {
      setRunning(false);
      setStatus(event.outcome === "completed" ? "" : text[event.outcome] || text.failed);
      const bubble = bubbles.get(event.turn_id);
      if (bubble) bubble.dataset.done = event.outcome;
      bubbles.delete(event.turn_id);
    },
  };

  // --- the socket ----------------------------------------------------------------------------------

  function send(frame) {
    if (socket && socket.readyState === WebSocket.OPEN) { socket.send(JSON.stringify(frame)); return true; }
    return false;
  }

  function follow() {
    if (currentId) send({ type: "replay", conversation_id: currentId, after_seq: lastSeq });
  }

  function connect() {
    const scheme = window.location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(`${scheme}://${window.location.host}${config.socket}`);
    socket.addEventListener("open", () => {
      retries = 0;
      if (status.textContent === text.connecting || status.textContent === text.reconnecting) setStatus("");
      follow(); // after a reconnect this replays exactly what was missed
    });
    socket.addEventListener("message", (message) => {
      try { onEvent(JSON.parse(message.data)); } catch (error) { console.error(error); }
    });
    socket.addEventListener("close", (closing) => {
      if (closing.code === 4401) { closedForGood = true; showError(text.sessionExpired); setRunning(false); return; }
      if (closedForGood) return;
      setStatus(text.reconnecting);
      retries += 1;
      window.setTimeout(connect, Math.min(10000, 500 * 2 ** Math.min(retries, 5)));
    });
  }

  // --- the composer --------------------------------------------------------------------------------

  async function submit() {
    const message = input.value.trim();
    if (!message || running) return;
    showError("");
    try {
      if (!currentId) {
        const created = await api("POST", config.api, {});
        conversations.unshift(created);
        currentId = created.id;
        lastSeq = 0;
        window.history.replaceState(null, "", `${config.page}${created.id}/`);
        renderList();
      }
      if (!send({ type: "chat.send", conversation_id: currentId, text: message })) throw new Error(text.reconnecting);
      addMessage("user", message);
      input.value = "";
      setRunning(true);
      setStatus(text.sending);
      const current = conversations.find((c) => c.id === currentId);
      if (current && !current.title) { current.title = message.slice(0, 30); renderList(); }
    } catch (error) { showError(error.message); }
  }

  $("chat-composer").addEventListener("submit", (event) => { event.preventDefault(); submit(); });
  input.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.shiftKey && !event.isComposing) { event.preventDefault(); submit(); }
  });
  stopButton.addEventListener("click", () => {
    if (currentId && send({ type: "chat.cancel", conversation_id: currentId })) setStatus(text.stopping);
  });
  document.querySelector("[data-test=chat-new]").addEventListener("click", startBlank);

  renderList();
  setStatus(text.connecting);
  connect();
  if (currentId) openConversation(currentId);
})();
