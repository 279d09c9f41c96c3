// The chat page: conversation list, a websocket to /ws/agent/, turns rendered from their events,
// reconnect with replay. The protocol is documented in docs/event-protocol.md; widgets are in
// chat_cards.js and Markdown in chat_markdown.js.
//
// A conversation is rebuilt from two sources: its stored messages (the user's words and each
// finished answer, canonical) and its timeline replayed over the socket (tool calls, cards, errors,
// and the deltas of a turn whose answer is not stored yet). Every event carries a seq; one already
// seen is ignored, so a replay after a reconnect never shows anything twice.
//
// A message is not taken as sent until the server acknowledges it (chat.ack, sent once the message is
// stored). One not acknowledged within a few seconds, or whose socket closed first, says 未发送 with a
// resend button; a reconnect sends it again by itself with the same id, which the server never stores twice.
(function () {
  "use strict";
  const config = JSON.parse(document.getElementById("chat-config").textContent);
  const text = JSON.parse(document.getElementById("chat-strings").textContent);
  const { el, button, format } = window.ChatCards;
  const $ = (id) => document.getElementById(id);
  const list = $("chat-list"), messages = $("chat-messages"), input = $("chat-input"), hello = $("chat-hello");
  const status = $("chat-status"), errorBox = $("chat-error"), sendButton = $("chat-send"), stopButton = $("chat-stop");
  const meterNodes = { box: $("chat-meter"), bar: $("chat-meter-bar"), label: $("chat-meter-label"),
    legend: $("chat-meter-legend") };
  const STORE = { thinking: "smartmate.chat.thinking", alwaysExecute: "smartmate.chat.alwaysExecute" };

  let conversations = config.conversations.slice();
  let currentId = config.conversationId;
  let lastSeq = 0; // the last event of the open conversation rendered
  let liveFrom = 0; // events after this seq happen now; earlier ones are history being replayed
  let awaiting = false; // a frame was sent and its turn has not shown an event yet
  let opened = false; // the open conversation's stored messages are on the page: its events may come
  let replayAsked = -1; // the lastSeq a gap replay was asked for (asked once per gap)
  let socket = null;
  // 0.5 s doubling to 10 s with jitter, reset only by a socket that stayed open 10 s (static/js/reconnect.js).
  const reconnect = window.Reconnect.backoff({ baseMs: 500, capMs: 10000, stableMs: 10000 });
  // Messages sent and not acknowledged yet: client_message_id -> {frame, bubble, timer}.
  const unacknowledged = new Map();
  const ACK_TIMEOUT_MS = 5000;
  // What the server last said about the open conversation: {running, turnKey, seq}. A turn it called
  // not running (its worker died and it was ended) never keeps Send disabled, whatever the page saw.
  let serverState = null;
  let lastFrameAt = 0; // when the last event of the open conversation arrived
  let closedForGood = false;
  let storedTurns = new Map(); // normalised turn id -> {user, assistant} stored messages
  let replacedTurns = new Set(); // turns answered again (Regenerate): their replayed events stay off the page
  const turns = new Map(); // normalised turn id -> the view of that turn
  let lastTurn = null;
  let openCards = []; // confirm / ask cards still waiting, with the seq that opened them
  let lastUserMessage = null; // what Regenerate sends again
  const regenerate = button(text.regenerate, "link-button small chat-regenerate", "chat-regenerate");

  const turnKey = (id) => String(id || "").replaceAll("-", "").toLowerCase();

  // --- small helpers ---------------------------------------------------------------------------

  function setStatus(message) { status.textContent = message || ""; }

  function showError(message) {
    errorBox.textContent = message || "";
    errorBox.hidden = !message;
  }

  // Only the newest turn can be running (one turn per conversation, and a turn always ends with turn.done),
  // and only while the server does not say otherwise: a turn with no event after the server answered
  // "not running" is over, even if its turn.done never reached the page.
  const activeTurn = () => {
    if (!lastTurn || !lastTurn.started || lastTurn.outcome) return null;
    if (serverState && !serverState.running && lastTurn.seq <= serverState.seq) return null;
    return lastTurn;
  };

  function refreshRunning() {
    const running = awaiting || activeTurn() !== null;
    sendButton.disabled = running;
    stopButton.hidden = !running;
    refreshRegenerate(running);
    return running;
  }

  // These writes carry no idempotency key: a retry is the student's own new request.
  function api(method, url, body) {
    return window.Api.request(method, url, { body, key: false, fallback: text.requestFailed });
  }

  const conversationUrl = (id) => `${config.api}${id}/`;

  function scrollDown() { messages.scrollTop = messages.scrollHeight; }

  // --- the options under the composer ----------------------------------------------------------

  const pickerBoxes = () => [...document.querySelectorAll("input[name=task_class_ids]")];
  const alwaysExecute = $("chat-always-execute");

  function restoreOptions() {
    const thinking = window.localStorage.getItem(STORE.thinking);
    const radio = document.querySelector(`input[name=thinking][value="${thinking}"]`);
    if (radio) radio.checked = true;
    alwaysExecute.checked = window.localStorage.getItem(STORE.alwaysExecute) === "true";
    refreshAlwaysWarning();
    refreshPicker();
  }

  function refreshAlwaysWarning() {
    $("chat-always-warning").classList.toggle("active", alwaysExecute.checked);
  }

  function refreshPicker() {
    const chosen = pickerBoxes().filter((box) => box.checked).length;
    $("chat-picker-summary").textContent =
      chosen ? format(text.taskClassesChosen, { count: chosen }) : text.taskClassesNone;
  }

  function options() {
    const thinking = (document.querySelector("input[name=thinking]:checked") || {}).value || "auto";
    const ids = pickerBoxes().filter((box) => box.checked).map((box) => Number(box.value));
    return { task_class_ids: ids, thinking, always_execute: alwaysExecute.checked };
  }

  document.querySelectorAll("input[name=thinking]").forEach((radio) => radio.addEventListener("change", () => {
    window.localStorage.setItem(STORE.thinking, radio.value);
  }));
  alwaysExecute.addEventListener("change", () => {
    window.localStorage.setItem(STORE.alwaysExecute, String(alwaysExecute.checked));
    refreshAlwaysWarning();
  });
  pickerBoxes().forEach((box) => box.addEventListener("change", () => {
    if (options().task_class_ids.length > config.maxTaskClasses) {
      box.checked = false;
      showError(text.tooManyTaskClasses);
    }
    refreshPicker();
  }));

  // --- conversation list -----------------------------------------------------------------------

  function listAction(label, test, handler) {
    const action = button(label, "chat-item-action link-button", test);
    action.addEventListener("click", handler);
    return action;
  }

  function renderList() {
    list.replaceChildren();
    $("chat-list-empty").hidden = conversations.length > 0;
    for (const conversation of conversations) {
      const item = el("li", "chat-item" + (conversation.id === currentId ? " active" : ""));
      item.dataset.conversationId = conversation.id;
      item.dataset.test = "chat-item";
      const open = button(conversation.title || text.untitled, "chat-item-title link-button", "chat-open");
      if (conversation.id === currentId) open.setAttribute("aria-current", "true");
      open.addEventListener("click", () => openConversation(conversation.id));
      item.append(open,
        listAction(text.rename, "chat-rename", () => renameConversation(conversation)),
        listAction(text.archive, "chat-archive", () => removeConversation(conversation, "archive")),
        listAction(text.delete, "chat-delete", () => removeConversation(conversation, "delete")));
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

  async function removeConversation(conversation, how) {
    if (how === "delete" && !window.confirm(text.deleteConfirm)) return;
    try {
      if (how === "delete") await api("DELETE", conversationUrl(conversation.id));
      else await api("POST", `${conversationUrl(conversation.id)}archive/`, { archived: true });
      conversations = conversations.filter((c) => c.id !== conversation.id);
      if (conversation.id === currentId) startBlank();
      renderList();
    } catch (error) { showError(error.message); }
  }

  function reset() {
    lastSeq = 0;
    serverState = null;
    liveFrom = 0;
    awaiting = false;
    opened = false;
    replayAsked = -1;
    turns.clear();
    lastTurn = null;
    lastUserMessage = null;
    storedTurns = new Map();
    replacedTurns = new Set();
    openCards = [];
    for (const entry of unacknowledged.values()) window.clearTimeout(entry.timer);
    unacknowledged.clear();
    messages.replaceChildren();
    meterNodes.box.hidden = true;
    $("chat-usage").textContent = "";
  }

  function startBlank() {
    currentId = null;
    reset();
    messages.append(hello);
    refreshRunning();
    setStatus("");
    showError("");
    window.history.replaceState(null, "", config.page);
    renderList();
    input.focus();
  }

  // The conversation being loaded: a message typed meanwhile waits for it, or the load would wipe its bubble.
  let opening = Promise.resolve();

  function openConversation(id) {
    opening = loadConversation(id);
    return opening;
  }

  async function loadConversation(id) {
    showError("");
    try {
      const detail = await api("GET", conversationUrl(id));
      currentId = id;
      reset();
      renderStoredMessages(detail.messages);
      liveFrom = detail.last_seq;
      opened = true;
      setStatus("");
      const known = conversations.find((c) => c.id === id);
      if (known) Object.assign(known, detail.conversation); else conversations.unshift(detail.conversation);
      window.history.replaceState(null, "", `${config.page}${id}/`);
      applyState({ running: Boolean(detail.running_turn),
        turn_id: detail.running_turn ? detail.running_turn.turn_id : null, last_seq: detail.last_seq });
      renderList();
      refreshRunning();
      follow(); // replays the whole timeline: tool calls, cards, and the running turn's answer so far
    } catch (error) { showError(error.message); }
  }

  // --- turns -------------------------------------------------------------------------------------

  function userBubble(content) {
    hello.remove();
    const bubble = el("div", "chat-msg user");
    bubble.dataset.test = "chat-user-message";
    const body = el("div", "chat-text", content);
    bubble.append(body);
    lastUserMessage = content;
    messages.append(bubble);
    scrollDown();
    return bubble;
  }

  /** Return the view of a turn, creating its block (after its user message, when one is stored). */
  function turnFor(turnId) {
    const key = turnKey(turnId);
    if (turns.has(key)) return turns.get(key);
    hello.remove();
    const stored = storedTurns.get(key) || {};
    if (stored.user) userBubble(stored.user.content);
    const block = el("article", "chat-msg assistant");
    block.dataset.test = "chat-assistant-message";
    block.dataset.turnId = key;
    const reasoning = el("details", "chat-reasoning");
    reasoning.append(el("summary", "", text.reasoning), el("div", "chat-reasoning-text"));
    reasoning.hidden = true;
    const flow = el("div", "chat-flow");
    const answer = el("div", "chat-text md");
    answer.dataset.test = "chat-answer";
    const after = el("div", "chat-after");
    const meta = el("div", "chat-meta muted");
    block.append(reasoning, flow, answer, after, meta);
    messages.append(block);
    const turn = { key, block, reasoning, flow, answer, after, meta, raw: "", stored: false, started: false,
      outcome: null, tools: new Map(), timer: 0, seq: 0 };
    turns.set(key, turn);
    lastTurn = turn;
    if (stored.assistant) showStoredAnswer(turn, stored.assistant);
    scrollDown();
    return turn;
  }

  /** Under an answer cut at the model's length limit: say so, and offer to go on from there. */
  function showCutOff(turn) {
    if (turn.block.querySelector(".chat-cut-off")) return;
    const note = el("p", "chat-cut-off muted", text.truncated);
    note.dataset.test = "chat-cut-off";
    const more = button(text.continue, "link-button small", "chat-continue");
    more.addEventListener("click", async () => { if (await sendMessage(text.continuePrompt)) more.remove(); });
    note.append(" ", more);
    turn.after.append(note);
  }

  function showStoredAnswer(turn, message) {
    turn.stored = true;
    if (message.outcome === "truncated") showCutOff(turn);
    turn.raw = message.content || "";
    window.ChatMarkdown.render(turn.answer, turn.raw);
    if (message.reasoning) {
      turn.reasoning.hidden = false;
      turn.reasoning.querySelector(".chat-reasoning-text").textContent = message.reasoning;
    }
    const tokens = (message.prompt_tokens || 0) + (message.completion_tokens || 0);
    if (tokens) turn.meta.textContent = `${tokens.toLocaleString()} ${text.tokens}`;
  }

  function renderStoredMessages(stored) {
    for (const message of stored) {
      if (!message.turn_id) { // a message from outside any turn: show it as it is
        if (message.role === "user") userBubble(message.content);
        else showStoredAnswer(turnFor(`message-${message.id}`), message);
        continue;
      }
      const key = turnKey(message.turn_id);
      const entry = storedTurns.get(key) || {};
      entry[message.role] = message;
      storedTurns.set(key, entry);
    }
    // Lay the turns out in message order now; their events fill them in as the replay arrives.
    for (const message of stored) if (message.turn_id) turnFor(message.turn_id);
  }

  /** Re-render a streaming answer at most every 40 ms: Markdown is parsed whole each time. */
  function scheduleRender(turn) {
    if (turn.timer) return;
    turn.timer = window.setTimeout(() => { turn.timer = 0; renderAnswer(turn); }, 40);
  }

  function renderAnswer(turn) {
    window.clearTimeout(turn.timer);
    turn.timer = 0;
    window.ChatMarkdown.render(turn.answer, turn.raw);
    scrollDown();
  }

  /** Put the one Regenerate button under the last finished answer (none while a turn runs). */
  function refreshRegenerate(running) {
    const last = lastTurn;
    if (running || !last || (!last.outcome && !last.stored) || !lastUserMessage) { regenerate.remove(); return; }
    if (regenerate.parentNode !== last.meta) last.meta.append(regenerate);
  }

  /** Ask again: the server replaces the last answer (chat.regenerate); its old block leaves the page. */
  function regenerateLast() {
    if (!currentId || !lastTurn || refreshRunning()) return;
    showError("");
    if (!send({ type: "chat.regenerate", conversation_id: currentId })) { showError(text.reconnecting); return; }
    regenerate.remove();
    lastTurn.block.remove();
    turns.delete(lastTurn.key);
    // Its events may still be on their way (the replay after a reload): they must not bring it back.
    replacedTurns.add(lastTurn.key);
    storedTurns.delete(lastTurn.key);
    lastTurn = null;
    awaiting = true;
    refreshRunning();
    setStatus(text.sending);
  }
  regenerate.addEventListener("click", regenerateLast);

  // --- cards -------------------------------------------------------------------------------------

  function closeCardsBefore(seq) {
    openCards = openCards.filter((entry) => {
      if (entry.seq >= seq) return true;
      if (entry.card.dataset.state === "open") window.ChatCards.settle(entry.card, "closed", text.cardClosed);
      return false;
    });
  }

  function onCardAction(card, action, answer) {
    const frame = { type: "chat.resume", conversation_id: currentId, interaction_id: card.dataset.interactionId,
      action };
    if (action === "answer") frame.text = answer;
    const note = { accept: text.accepted, reject: text.rejected, answer: text.answered }[action];
    window.ChatCards.settle(card, "sent", note);
    if (!send(frame)) { window.ChatCards.reopen(card); showError(text.reconnecting); return; }
    showError("");
    awaiting = true;
    setStatus(text.sending);
    refreshRunning();
  }

  function cardFor(interactionId) {
    return [...messages.querySelectorAll(".chat-card")].find((card) => card.dataset.interactionId === interactionId);
  }

  // --- events from the server --------------------------------------------------------------------

  const PROGRESS = new Set(["status", "assistant.delta", "reasoning.delta", "tool.call", "tool.result",
    "confirm.request", "ask.user", "preview.ready"]);

  function onFrame(frame) {
    if (frame.type === "chat.ack") { onAck(frame); return; }
    if (frame.seq === undefined) { onErrorFrame(frame); return; }
    if (frame.conversation_id !== currentId || frame.seq <= lastSeq) return; // another conversation, or seen
    if (frame.seq > lastSeq + 1) { // a gap: ask once for what is missing; it comes in order
      if (replayAsked !== lastSeq) {
        replayAsked = lastSeq;
        send({ type: "replay", conversation_id: currentId, after_seq: lastSeq });
      }
      return;
    }
    lastSeq = frame.seq;
    // A stored turn whose messages are gone was answered again (Regenerate): its events stay in the
    // log, but the page shows only the answer that replaced it.
    if (frame.seq <= liveFrom && !storedTurns.has(turnKey(frame.turn_id))) return;
    if (replacedTurns.has(turnKey(frame.turn_id))) return;
    const turn = turnFor(frame.turn_id);
    turn.started = true;
    turn.seq = frame.seq;
    lastFrameAt = Date.now();
    if (PROGRESS.has(frame.type)) closeCardsBefore(frame.seq);
    if (frame.seq > liveFrom) awaiting = false;
    const handler = handlers[frame.type];
    if (handler) handler(frame, turn, frame.seq > liveFrom);
    refreshRunning();
  }

  function onErrorFrame(frame) {
    awaiting = false;
    if (frame.client_message_id) markUnsent(frame.client_message_id); // refused: not stored, offer it again
    showError(frame.message || text.requestFailed);
    const interactionId = frame.detail && frame.detail.interaction_id;
    const card = interactionId ? cardFor(interactionId) : null;
    if (frame.code === "stale_interaction" && card) {
      window.ChatCards.settle(card, "stale", frame.message || text.cardStale);
    }
    else if (card && card.dataset.state === "sent") window.ChatCards.reopen(card);
    if (!refreshRunning()) setStatus("");
  }

  const handlers = {
    "status": (event, turn, live) => {
      if (live || !turn.outcome) setStatus(event.message);
      if (event.code === "resumed" && !turn.stored) { // the turn restarts a node: drop the half-written answer
        turn.raw = "";
        renderAnswer(turn);
      }
    },
    "assistant.delta": (event, turn) => {
      if (turn.stored) return; // the stored message already shows the whole answer
      turn.answer.setAttribute("aria-busy", "true"); // read out once it is whole, not at every re-render
      turn.raw += event.text;
      scheduleRender(turn);
    },
    "reasoning.delta": (event, turn) => {
      if (turn.stored) return;
      turn.reasoning.hidden = false;
      turn.reasoning.querySelector(".chat-reasoning-text").textContent += event.text;
      scrollDown();
    },
    "tool.call": (event, turn) => {
      const item = window.ChatCards.toolCall(event);
      turn.tools.set(event.call_id, item);
      turn.flow.append(item);
      scrollDown();
    },
    "tool.result": (event, turn) => {
      let item = turn.tools.get(event.call_id);
      if (!item) { // its call is not on the page (an older replay page): show the result on its own
        item = window.ChatCards.toolCall({ call_id: event.call_id, name: event.name, label: event.label,
          summary: "", arguments: {} });
        turn.tools.set(event.call_id, item);
        turn.flow.append(item);
      }
      window.ChatCards.toolResult(item, event);
      scrollDown();
    },
    "confirm.request": (event, turn, live) =>
      addCard(window.ChatCards.confirmCard(event, onCardAction), turn, event, live),
    "ask.user": (event, turn, live) => addCard(window.ChatCards.askCard(event, onCardAction), turn, event, live),
    "preview.ready": (event, turn) => {
      turn.after.append(window.ChatCards.previewCard(event, { board: config.board, previewsApi: config.previewsApi }));
      scrollDown();
    },
    "context": (event) => window.ChatCards.meter(meterNodes, event),
    "usage": (event, turn) => {
      const line = window.ChatCards.usage(event);
      $("chat-usage").textContent = line;
      if (!turn.stored) turn.meta.textContent = `${Number(event.total_tokens || 0).toLocaleString()} ${text.tokens}`;
    },
    "error": (event, turn, live) => {
      const line = el("p", "chat-turn-error", event.message);
      line.dataset.test = "chat-turn-error";
      line.dataset.code = event.code;
      turn.flow.append(line);  // said once, in the turn; the status line says the turn failed
    },
    "answer.reset": (event, turn) => { // the turn runs again after its worker died: its answer so far
      if (turn.stored) return;
      turn.raw = event.text || "";
      renderAnswer(turn);
      turn.reasoning.querySelector(".chat-reasoning-text").textContent = event.reasoning || "";
      turn.reasoning.hidden = !event.reasoning;
    },
    "turn.done": (event, turn, live) => {
      turn.outcome = event.outcome;
      turn.block.dataset.done = event.outcome;
      if (event.outcome === "truncated") showCutOff(turn);
      if (!turn.stored) renderAnswer(turn);
      turn.answer.removeAttribute("aria-busy");
      if (live || !activeTurn()) setStatus(event.outcome === "completed" ? "" : text[event.outcome] || text.failed);
    },
  };

  function addCard(card, turn, event, live) {
    turn.after.append(card);
    openCards.push({ card, seq: event.seq });
    scrollDown();
    if (live) card.querySelector("button, textarea")?.focus({ preventScroll: true });
  }

  // --- the socket ----------------------------------------------------------------------------------

  function send(frame) {
    if (socket && socket.readyState === WebSocket.OPEN) { socket.send(JSON.stringify(frame)); return true; }
    return false;
  }

  /** Wait (a few seconds at most) for a socket still connecting, so a click right after a reload is not lost. */
  function socketOpen(timeoutMs) {
    if (!socket || socket.readyState !== WebSocket.CONNECTING) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => { window.clearTimeout(timer); resolve(); };
      const timer = window.setTimeout(done, timeoutMs);
      socket.addEventListener("open", done, { once: true });
      socket.addEventListener("close", done, { once: true });
    });
  }

  function follow() {
    if (currentId && opened) send({ type: "replay", conversation_id: currentId, after_seq: lastSeq });
  }

  /** Remember what the server says runs in the open conversation, and let Send follow it. */
  function applyState(state) {
    serverState = { running: Boolean(state.running), turnKey: turnKey(state.turn_id), seq: state.last_seq || 0 };
    if (!state.running && lastTurn && !lastTurn.outcome) {
      lastTurn.answer.removeAttribute("aria-busy");
      if (!awaiting) setStatus("");
    }
    refreshRunning();
  }

  /** Ask the server whether a turn runs now (it ends a turn whose worker died first): on reconnect, after
   * Stop, and when a running turn has been silent for a while. */
  async function syncState() {
    const id = currentId;
    if (!id || !opened) return;
    try {
      const state = await api("GET", `${conversationUrl(id)}state/`);
      if (id === currentId) applyState(state);
    } catch (error) { /* the server is away: the next reconnect asks again */ }
  }

  // A running turn that stays silent this long may have lost its worker: ask the server.
  const SILENT_TURN_MS = 30000;
  window.setInterval(() => {
    if (activeTurn() && Date.now() - lastFrameAt > SILENT_TURN_MS) { lastFrameAt = Date.now(); syncState(); }
  }, 5000);

  // --- messages until the server acknowledges them ---------------------------------------------------

  /** A fresh id for a message: the server's idempotency key for it, so a resend never makes a second turn. */
  function newClientId() {
    return window.Api.idempotencyKey();
  }

  /** Send (again) a message the server has not acknowledged; false when the socket is not open. */
  function sendTracked(entry) {
    if (!send(entry.frame)) return false;
    window.clearTimeout(entry.timer);
    entry.timer = window.setTimeout(() => markUnsent(entry.frame.client_message_id), ACK_TIMEOUT_MS);
    entry.bubble.dataset.state = "sending";
    entry.bubble.querySelector(".chat-unsent")?.remove();
    return true;
  }

  /** Say the message did not reach the server, and offer to send it again. */
  function markUnsent(clientId) {
    const entry = unacknowledged.get(clientId);
    if (!entry || entry.bubble.dataset.state === "unsent") return;
    window.clearTimeout(entry.timer);
    entry.bubble.dataset.state = "unsent";
    const note = el("div", "chat-unsent", text.unsent);
    note.dataset.test = "chat-unsent";
    const again = button(text.resend, "link-button small", "chat-resend");
    again.addEventListener("click", () => {
      if (!sendTracked(entry)) { showError(text.reconnecting); return; }
      showError("");
      awaiting = true;
      setStatus(text.sending);
      refreshRunning();
    });
    note.append(" ", again);
    entry.bubble.append(note);
    awaiting = false;
    if (!refreshRunning()) setStatus("");
  }

  function onAck(frame) {
    const entry = unacknowledged.get(frame.client_message_id);
    if (!entry) return; // a conversation left meanwhile, or a second ack of a resend
    window.clearTimeout(entry.timer);
    unacknowledged.delete(frame.client_message_id);
    entry.bubble.dataset.state = "sent";
    entry.bubble.querySelector(".chat-unsent")?.remove();
    // A resend of a message whose turn this page already saw end: no event is coming to clear "sending".
    const turn = turns.get(turnKey(frame.turn_id));
    if (turn && turn.outcome) {
      awaiting = false;
      if (!refreshRunning() && status.textContent === text.sending) setStatus("");
    }
  }

  /** After a reconnect: send again what was not acknowledged (the server keeps each id once). */
  function resendUnacknowledged() {
    for (const entry of unacknowledged.values()) {
      if (entry.frame.conversation_id === currentId && sendTracked(entry)) awaiting = true;
    }
    refreshRunning();
  }

  function connect() {
    const scheme = window.location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(`${scheme}://${window.location.host}${config.socket}`);
    socket.addEventListener("open", () => {
      reconnect.opened();
      if (status.textContent === text.connecting || status.textContent === text.reconnecting) setStatus("");
      follow(); // after a reconnect this replays exactly what was missed
      resendUnacknowledged();
      syncState();
    });
    socket.addEventListener("message", (message) => {
      try { onFrame(JSON.parse(message.data)); } catch (error) { console.error(error); }
    });
    socket.addEventListener("close", (closing) => {
      if (closing.code === 4401) {
        closedForGood = true;
        awaiting = false;
        showError(text.sessionExpired);
        refreshRunning();
        return;
      }
      if (closedForGood) return;
      // A frame sent just before the drop may never have arrived; if its turn did start, the replay shows it.
      // A message not acknowledged says so now (the reconnect sends it again).
      for (const clientId of unacknowledged.keys()) markUnsent(clientId);
      awaiting = false;
      refreshRunning();
      setStatus(text.reconnecting);
      window.setTimeout(connect, reconnect.nextDelay());
    });
  }

  // --- the composer --------------------------------------------------------------------------------

  async function ensureConversation() {
    if (currentId) return;
    const created = await api("POST", config.api, {});
    conversations.unshift(created);
    currentId = created.id;
    reset();
    opened = true;
    window.history.replaceState(null, "", `${config.page}${created.id}/`);
    renderList();
  }

  async function sendMessage(message) {
    if (!message || refreshRunning()) return false;
    showError("");
    try {
      await opening;
      await ensureConversation();
      await socketOpen(5000);
      if (!socket || socket.readyState !== WebSocket.OPEN) throw new Error(text.reconnecting);
      const frame = { type: "chat.send", conversation_id: currentId, text: message, ...options(),
        client_message_id: newClientId() };
      const entry = { frame, bubble: userBubble(message), timer: 0 };
      unacknowledged.set(frame.client_message_id, entry);
      sendTracked(entry);
      awaiting = true;
      refreshRunning();
      setStatus(text.sending);
      const current = conversations.find((c) => c.id === currentId);
      if (current && !current.title) { current.title = message.slice(0, 30); renderList(); }
      return true;
    } catch (error) { showError(error.message); return false; }
  }

  async function submit() {
    const message = input.value.trim();
    if (await sendMessage(message)) input.value = "";
  }

  $("chat-composer").addEventListener("submit", (event) => { event.preventDefault(); submit(); });
  input.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.shiftKey && !event.isComposing) { event.preventDefault(); submit(); }
  });
  stopButton.addEventListener("click", () => {
    if (currentId && send({ type: "chat.cancel", conversation_id: currentId })) setStatus(text.stopping);
    syncState(); // a turn whose worker died has nothing to stop it: the server ends it and says so
  });
  document.querySelector("[data-test=chat-new]").addEventListener("click", startBlank);

  restoreOptions();
  renderList();
  setStatus(text.connecting);
  connect();
  if (currentId) openConversation(currentId);
})();
