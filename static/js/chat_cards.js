// The chat page's widgets: tool timeline entries, confirm / ask / preview cards and the context meter.
// They build DOM only from text nodes (never HTML strings); chat.js decides where they go and sends
// the frames. All visible words come from the translated strings the template renders.
(function () {
  "use strict";
  const text = JSON.parse(document.getElementById("chat-strings").textContent);

  function el(tag, className, content) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (content !== undefined && content !== null) node.textContent = content;
    return node;
  }

  function button(label, className, test) {
    const node = el("button", className, label);
    node.type = "button";
    if (test) node.dataset.test = test;
    return node;
  }

  /** Fill ``%(name)s`` placeholders (the gettext style the server translated them in). */
  function format(template, values) {
    return template.replace(/%\((\w+)\)s|%%/g, (match, name) => (name ? String(values[name] ?? "") : "%"));
  }

  const number = (value) => Number(value || 0).toLocaleString();

  /** Show a JSON value as nested lists: readable for a plan's steps, honest for anything else. */
  function renderValue(value, depth = 0) {
    if (value === null || value === undefined) return el("span", "muted", "—");
    if (typeof value !== "object") return el("span", "", String(value));
    if (depth >= 3) return el("pre", "chat-json", JSON.stringify(value, null, 2));
    if (Array.isArray(value)) {
      const list = el("ol", "chat-value-list");
      for (const item of value) { const li = el("li"); li.append(renderValue(item, depth + 1)); list.append(li); }
      return list;
    }
    const dl = el("dl", "chat-value-map");
    for (const [key, item] of Object.entries(value)) {
      const dd = el("dd");
      dd.append(renderValue(item, depth + 1));
      dl.append(el("dt", "", key), dd);
    }
    return dl;
  }

  function collapsible(label, value, test) {
    const box = el("details", "chat-collapsible");
    if (test) box.dataset.test = test;
    box.append(el("summary", "", label), renderValue(value));
    return box;
  }

  function isEmpty(value) {
    return value === null || value === undefined || (typeof value === "object" && Object.keys(value).length === 0);
  }

  // --- the tool timeline -------------------------------------------------------------------------

  function toolCall(event) {
    const item = el("div", "chat-tool running");
    item.dataset.test = "chat-tool";
    item.dataset.callId = event.call_id;
    const head = el("div", "chat-tool-head");
    const label = el("span", "chat-tool-label", event.label || text.toolStep); // students never see raw names
    label.dataset.test = "chat-tool-label";
    head.append(label, el("span", "badge chat-tool-status", text.toolRunning),
      el("span", "chat-tool-summary", event.summary || ""));
    item.append(head, toolDetails(event));
    return item;
  }

  // The raw tool name (and the arguments) only inside the details fold, for the curious.
  function toolDetails(event) {
    const box = el("details", "chat-collapsible chat-tool-details");
    box.dataset.test = "chat-tool-details";
    const name = el("code", "chat-tool-name", event.name);
    name.dataset.test = "chat-tool-name";
    box.append(el("summary", "", text.details), name);
    if (!isEmpty(event.arguments)) box.append(collapsible(text.toolArguments, event.arguments));
    return box;
  }

  function toolResult(item, event) {
    const status = ["done", "failed", "blocked"].includes(event.status) ? event.status : "failed";
    item.classList.remove("running");
    item.classList.add(status);
    item.dataset.status = status;
    const badge = item.querySelector(".chat-tool-status");
    badge.textContent = text.toolStatus[status];
    badge.classList.add(status === "done" ? "ok" : status === "blocked" ? "warn" : "err");
    if (event.summary) {
      const result = el("div", "chat-tool-result", event.summary);
      result.dataset.test = "chat-tool-result";
      item.append(result);
    }
    if (!isEmpty(event.result)) item.append(collapsible(text.toolResult, event.result));
  }

  // --- confirm and ask cards ----------------------------------------------------------------------

  function card(kind, heading, interactionId) {
    const box = el("section", `chat-card chat-card-${kind}`);
    box.dataset.test = `chat-${kind}-card`;
    box.dataset.interactionId = interactionId || "";
    box.dataset.state = "open";
    const id = `chat-card-${kind}-${Math.random().toString(36).slice(2)}`;
    const title = el("h2", "chat-card-heading", heading);
    title.id = id;
    box.setAttribute("aria-labelledby", id);
    box.append(title);
    return box;
  }

  function note(box, message, className) {
    let line = box.querySelector(".chat-card-note");
    if (!line) { line = el("p", "chat-card-note"); line.dataset.test = "chat-card-note"; box.append(line); }
    line.className = `chat-card-note ${className || ""}`;
    line.textContent = message;
  }

  /** Disable a card's controls and say why (``state``: sent, closed, stale). */
  function settle(box, state, message) {
    box.dataset.state = state;
    box.querySelectorAll("button, textarea").forEach((control) => { control.disabled = true; });
    note(box, message, state === "stale" ? "error" : "muted");
  }

  /** Give a card its controls back (the frame could not be sent). */
  function reopen(box) {
    box.dataset.state = "open";
    box.querySelectorAll("button, textarea").forEach((control) => { control.disabled = false; });
    box.querySelector(".chat-card-note")?.remove();
  }

  function planSteps(steps) {
    const list = el("ol", "chat-plan-steps");
    list.dataset.test = "chat-plan-steps";
    steps.forEach((step) => {
      const item = el("li", "", step.title || "");
      if (step.done_when) item.append(el("span", "muted chat-plan-done", ` — ${step.done_when}`));
      list.append(item);
    });
    return list;
  }

  function confirmCard(event, onAction) {
    const box = card("confirm", text.confirmHeading, event.interaction_id);
    box.append(el("h3", "chat-card-title", event.title));
    if (event.summary) box.append(el("p", "chat-card-summary", event.summary));
    if (event.details && typeof event.details.url === "string") box.append(urlLines(event.details));
    const steps = event.details && Array.isArray(event.details.steps) ? event.details.steps : null;
    const classes = event.details && Array.isArray(event.details.task_classes) ? event.details.task_classes : [];
    if (classes.length) {
      const line = el("p", "chat-plan-classes", format(text.planClasses, { names: classes.join(text.listSeparator) }));
      line.dataset.test = "chat-plan-classes";
      box.append(line);
    }
    if (steps) box.append(planSteps(steps)); // a plan is what is accepted: its steps are shown, not folded
    else if (!isEmpty(event.details)) box.append(collapsible(text.details, event.details, "chat-card-details"));
    const actions = el("div", "actions");
    const accept = button(text.accept, "primary", "chat-accept");
    const reject = button(text.reject, "", "chat-reject");
    accept.addEventListener("click", () => onAction(box, "accept", ""));
    reject.addEventListener("click", () => onAction(box, "reject", ""));
    actions.append(accept, reject);
    box.append(actions);
    return box;
  }

  // A web address the assistant wants to open: shown whole (it may carry data out), with the warning.
  function urlLines(details) {
    const url = el("code", "chat-card-url", details.url);
    url.dataset.test = "chat-card-url";
    const wrap = el("p", "chat-card-url-line");
    wrap.append(url);
    const lines = [wrap];
    if (details.warning) lines.push(el("p", "chat-card-warning", details.warning));
    const box = el("div", "chat-card-address");
    box.append(...lines);
    return box;
  }

  function askCard(event, onAction) {
    const box = card("ask", text.askHeading, event.interaction_id);
    box.append(el("p", "chat-card-question", event.question));
    const form = el("form", "chat-card-answer");
    const field = el("textarea");
    field.rows = 2;
    field.required = true;
    field.maxLength = 4000;
    field.dataset.test = "chat-answer-input";
    field.setAttribute("aria-label", text.answerLabel);
    field.placeholder = text.answerLabel;
    const submit = el("button", "primary", text.answer);
    submit.type = "submit";
    submit.dataset.test = "chat-answer-send";
    form.append(field, submit);
    form.addEventListener("submit", (submitted) => {
      submitted.preventDefault();
      const answer = field.value.trim();
      if (answer) onAction(box, "answer", answer);
    });
    box.append(form);
    return box;
  }

  // --- the preview card ---------------------------------------------------------------------------

  function previewCard(event, options) {
    const box = card("preview", text.previewHeading, "");
    box.dataset.previewId = event.preview_id;
    if (event.summary) box.append(el("p", "chat-card-summary", event.summary));
    const actions = el("div", "actions");
    const open = el("a", "button", text.previewOpen);
    open.href = `${options.board}?preview=${encodeURIComponent(event.preview_id)}`;
    open.dataset.test = "chat-preview-open";
    const apply = button(text.apply, "primary", "chat-preview-apply");
    actions.append(open, apply);
    box.append(actions);
    let key = null; // kept across a retry after a network failure, so the server can replay its answer
    apply.addEventListener("click", async () => {
      apply.disabled = true;
      note(box, text.applying, "muted");
      key = key || window.Api.idempotencyKey();
      const url = `${options.previewsApi}${encodeURIComponent(event.preview_id)}/apply/`;
      try {
        const body = await window.Api.request("POST", url, { key, fallback: text.requestFailed });
        key = null;
        box.dataset.state = "applied";
        note(box, body && body.summary ? format(text.appliedSummary, { summary: body.summary }) : text.applied, "ok");
      } catch (refused) {
        if (refused.status) key = null; // the server answered: the next click is a new attempt
        apply.disabled = false;
        note(box, refused.message, "error");
        if (refused.status && refused.code) box.querySelector(".chat-card-note").dataset.code = refused.code;
      }
    });
    showPreviewState(box, apply, event.preview_id, options);
    return box;
  }

  /** A card replayed after a reload says what became of its preview (the server knows; the event does not). */
  async function showPreviewState(box, apply, previewId, options) {
    let preview;
    try {
      preview = await window.Api.request("GET", `${options.previewsApi}${encodeURIComponent(previewId)}/`);
    } catch (ignored) { return; } // offline: the card stays as it is and Apply reports the server's answer
    const expired = preview.status === "open" && Date.parse(preview.expires_at) <= Date.now();
    const state = expired ? "expired" : preview.status;
    if (state === "open") return;
    box.dataset.state = state;
    apply.hidden = true;
    const notes = { applied: [text.applied, "ok"], discarded: [text.previewDiscarded, "muted"],
                    expired: [text.previewExpired, "muted"] };
    note(box, ...(notes[state] || [text.previewDiscarded, "muted"]));
  }

  // --- the context meter --------------------------------------------------------------------------

  const PART_ORDER = ["system", "memory", "history", "tools", "message"];

  function meter(nodes, event) {
    const budget = Math.max(1, Number(event.budget) || 1);
    const parts = Object.entries(event.parts || {}).sort(
      ([a], [b]) => (PART_ORDER.indexOf(a) + 1 || 99) - (PART_ORDER.indexOf(b) + 1 || 99));
    nodes.bar.replaceChildren();
    nodes.legend.replaceChildren();
    for (const [name, tokens] of parts) {
      const key = PART_ORDER.includes(name) ? name : "other";
      const label = text.contextParts[key];
      const share = Math.min(100, (100 * Number(tokens || 0)) / budget);
      const segment = el("span", `chat-meter-part part-${key}`);
      segment.style.width = `${share}%`;
      segment.title = `${label}: ${number(tokens)}`;
      segment.dataset.part = name;
      nodes.bar.append(segment);
      const item = el("li", "");
      item.append(el("span", `chat-meter-swatch part-${key}`), el("span", "", `${label} ${number(tokens)}`));
      nodes.legend.append(item);
    }
    const percent = Math.round((100 * Number(event.used || 0)) / budget);
    nodes.bar.classList.toggle("full", percent >= 90);
    nodes.label.textContent = format(text.contextLabel,
      { used: number(event.used), budget: number(event.budget), percent });
    nodes.box.hidden = false;
  }

  function usage(event) {
    const line = format(text.usageLabel, {
      total: number(event.total_tokens), prompt: number(event.prompt_tokens),
      completion: number(event.completion_tokens), calls: number(event.calls),
    });
    return event.estimated ? `${line} · ${text.usageEstimated}` : line;
  }

  window.ChatCards = { el, button, format, toolCall, toolResult, confirmCard, askCard, previewCard, settle, reopen,
    meter, usage };
})();
