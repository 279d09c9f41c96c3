// The one way page scripts talk to the JSON API (window.Api), loaded by templates/base.html before them.
// A request carries the session's CSRF token and, for a write, an X-Idempotency-Key; a refusal becomes an
// Api.Error with the server's {code, message, detail}; a network failure (offline, server gone) becomes one
// too, in the student's language, because the browser's own words ("Failed to fetch") are English and say
// nothing useful. The page-wide fallback texts sit on <body> (data-text-request-failed, data-text-offline).
(function () {
  "use strict";

  class ApiError extends Error {
    constructor(message, { status = 0, code = "", detail = {} } = {}) {
      super(message);
      this.name = "ApiError";
      this.status = status;  // 0: no answer reached the page
      this.code = code;
      this.detail = detail;
    }
  }

  function pageText(name) {
    return (document.body && document.body.dataset[name]) || "";
  }

  // The cookie first: a page the service worker kept may carry a form token older than the session's secret.
  function csrfToken() {
    const match = document.cookie.match(/(?:^|; )csrftoken=([^;]+)/);
    const field = document.querySelector("input[name=csrfmiddlewaretoken]");
    return match ? decodeURIComponent(match[1]) : (field ? field.value : "");
  }

  function idempotencyKey() {
    if (window.crypto && typeof window.crypto.randomUUID === "function") return window.crypto.randomUUID();
    const bytes = window.crypto.getRandomValues(new Uint8Array(16)); // randomUUID needs a secure context
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  function headersFor(method, body, key) {
    const headers = { "Accept": "application/json" };
    if (method !== "GET") headers["X-CSRFToken"] = csrfToken();
    if (body !== undefined) headers["Content-Type"] = "application/json";
    if (key) headers["X-Idempotency-Key"] = key;
    return headers;
  }

  // A write gets a fresh key unless the caller keeps its own across retries (key: "...") or the endpoint
  // takes none (key: false: a dry read such as parsing what the student types).
  function keyFor(method, key) {
    if (method === "GET" || key === false) return "";
    return typeof key === "string" ? key : idempotencyKey();
  }

  async function readJson(response) {
    try { return await response.json(); } catch (notJson) { return null; } // 204, or an HTML error page
  }

  /**
   * Send one request and answer its JSON (null when there is none); throw an ApiError otherwise.
   * options: body (sent as JSON), key (see keyFor), signal (an AbortSignal), fallback (the message for a
   * refusal that brings no message of its own; default the page's "request failed" text).
   */
  async function request(method, url, options = {}) {
    const { body, key, signal, fallback } = options;
    let response;
    try {
      response = await fetch(url, {
        method, credentials: "same-origin", headers: headersFor(method, body, keyFor(method, key)),
        body: body === undefined ? undefined : JSON.stringify(body), signal,
      });
    } catch (unreachable) {
      if (unreachable && ["AbortError", "TimeoutError"].includes(unreachable.name)) throw unreachable;
      throw new ApiError(pageText("textOffline") || fallback || pageText("textRequestFailed"), { code: "network" });
    }
    const data = await readJson(response);
    if (response.ok) return data;
    throw new ApiError((data && data.message) || fallback || pageText("textRequestFailed"), {
      status: response.status, code: (data && data.code) || "", detail: (data && data.detail) || {},
    });
  }

  window.Api = {
    Error: ApiError,
    request,
    idempotencyKey,
  };
})();
