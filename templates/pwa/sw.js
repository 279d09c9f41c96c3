{% autoescape off %}// SmartMate's service worker (served at /sw.js by smartmate/pwa.py, scope: the whole site).
// - The shell (styles, scripts, icons) is cached at install, and every static file as it passes: pages drawn
//   offline look like themselves.
// - The agenda (this week and next) is kept per student when a signed-in page asks ("keep"), in one cache
//   with a note of whose it is and when it was saved; another student's "keep" wipes it first.
// - The kept pages belong to one session: the scope a page gives with "keep" is derived from the session, and
//   every page from the network names its session's scope in X-Pocket-Scope ("-": nobody signed in). A page
//   naming another scope than the kept one (signed out here or elsewhere, expired, someone else) wipes them.
// - Pages always come from the network (a kept agenda page visited online refreshes its saved copy); only
//   when the network fails is a kept agenda page served, and only at its own address, marked
//   <body data-offline-saved="…"> so the page shows the offline banner and disables what needs the
//   network. Read only: nothing is queued. Any other address offline gets the offline page (in the shell):
//   it says the page was not saved and links what was.
// - Keeping a page also keeps every style and script it names, so its first offline view draws whole
//   even when those files were fetched before this worker controlled the page.
// - Signing out ("forget", or the sign-out request itself passing through here) deletes the kept pages; the
//   sign-out itself never waits for this worker.
const VERSION = "{{ version }}";
const SHELL_CACHE = "sm-shell-" + VERSION;
const PAGES_CACHE = "sm-pages";
const META_KEY = "/__pocket/meta";
const SHELL = {{ shell_json }};
const LOGOUT_PATHS = {{ logout_json }};
const SCOPE_HEADER = {{ scope_header }};
const STATIC_PREFIX = {{ static_prefix }};
const OFFLINE_URL = {{ offline_url }};
// Old addresses of kept pages (the board was at /schedule/): offline, an app installed then or a bookmark
// still opens the kept copy of the page's new address, with the same query.
const MOVED = {{ moved_json }};
const KEEP_AGAIN_AFTER_MS = 60 * 1000;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(SHELL_CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((key) => key.startsWith("sm-shell-") && key !== SHELL_CACHE)
      .map((key) => caches.delete(key))))
    .then(() => self.clients.claim()));
});

self.addEventListener("message", (event) => {
  const data = event.data || {};
  const answer = (value) => { if (event.ports && event.ports[0]) event.ports[0].postMessage(value); };
  if (data.type === "forget") {
    event.waitUntil(inTurn(forget).then(() => answer({ forgotten: true })));
  } else if (data.type === "keep" && typeof data.scope === "string" && Array.isArray(data.urls)) {
    event.waitUntil(inTurn(() => keep(data.scope, data.urls)).then(answer, () => answer(null)));
  } else if (data.type === "kept") {
    event.waitUntil(keptUrls().then((urls) => answer({ urls })));
  }
});

// Keeps and forgets run one at a time, in the order asked: pages opened in quick succession each ask to
// keep the agenda, and the later ones then find it freshly kept instead of fetching it again beside the
// first; a forget (signing out) waits for a keep under way rather than racing its writes. When a page is
// told "kept", no fetch of the worker's is still out (one landing after the session ended would bring
// back the old session's cookies).
let queue = Promise.resolve();

function inTurn(work) {
  const done = queue.then(work);
  queue = done.catch(() => null);
  return done;
}

function forget() {
  return caches.delete(PAGES_CACHE);
}

async function meta(cache) {
  const hit = await cache.match(META_KEY);
  return hit ? hit.json() : null;
}

async function keep(scope, urls) {
  let cache = await caches.open(PAGES_CACHE);
  let note = await meta(cache);
  if (note && note.scope !== scope) { // another student's pages: gone before anything of this one is kept
    await forget();
    cache = await caches.open(PAGES_CACHE);
    note = null;
  }
  if (note && Date.now() - note.at < KEEP_AGAIN_AFTER_MS && urls.every((url) => note.urls.includes(url))) {
    return { savedAt: new Date(note.at).toISOString() };
  }
  const at = Date.now();
  const kept = [];
  for (const url of urls.filter((url) => new URL(url, self.location.origin).origin === self.location.origin)) {
    const response = await fetch(url, { credentials: "same-origin", redirect: "manual", cache: "no-store" });
    if (response.status !== 200) continue; // signed out meanwhile (a redirect to the login page): keep nothing
    const copy = await stamped(response, at);
    await keepAssets(await copy.clone().text());
    await cache.put(url, copy);
    kept.push(url);
  }
  await cache.put(META_KEY, new Response(JSON.stringify({ scope, at, urls: kept }),
    { headers: { "Content-Type": "application/json" } }));
  return { savedAt: new Date(at).toISOString(), urls: kept };
}

// The styles and scripts a kept page names (static files, public): into the shell cache when missing.
async function keepAssets(html) {
  const shell = await caches.open(SHELL_CACHE);
  const pattern = /(?:href|src)="([^"]+)"/g;
  const wanted = new Set();
  for (const match of html.matchAll(pattern)) {
    const path = match[1].replace(/&amp;/g, "&");
    if (path.startsWith(STATIC_PREFIX)) wanted.add(path);
  }
  for (const path of wanted) {
    if (await shell.match(path)) continue;
    try {
      const response = await fetch(path, { credentials: "same-origin" });
      if (response.ok) await shell.put(path, response);
    } catch (error) { /* offline again: the next keep tries */ }
  }
}

async function keptUrls() {
  if (!(await caches.has(PAGES_CACHE))) return [];
  const cache = await caches.open(PAGES_CACHE);
  return (await cache.keys()).map((request) => new URL(request.url).pathname + new URL(request.url).search)
    .filter((path) => path !== META_KEY);
}

async function stamped(response, at) {
  const headers = new Headers(response.headers);
  headers.set("X-Pocket-Saved", new Date(at).toISOString());
  return new Response(await response.blob(), { status: 200, headers });
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method === "POST" && LOGOUT_PATHS.includes(url.pathname)) {
    // The sign-out goes out at once; the kept pages are dropped beside it (after a keep under way).
    event.waitUntil(inTurn(forget));
    return;
  }
  if (request.method !== "GET") return;
  if (request.mode === "navigate") {
    event.respondWith(page(event, url));
  } else if (url.pathname.startsWith(STATIC_PREFIX)) {
    event.respondWith(asset(event));
  }
});

// Static files (public, the same for every student): from the network, each one kept as it passes so a page
// drawn offline finds every style and script it used online, not just the shell listed above.
async function asset(event) {
  try {
    const response = await fetch(event.request);
    if (response.ok) {
      const copy = response.clone();
      event.waitUntil(caches.open(SHELL_CACHE).then((cache) => cache.put(event.request, copy)));
    }
    return response;
  } catch (error) {
    const hit = await caches.match(event.request, { cacheName: SHELL_CACHE });
    if (hit) return hit;
    throw error;
  }
}

async function page(event, url) {
  let response;
  try {
    response = await fetch(event.request);
  } catch (error) {
    const hit = await keptPage((MOVED[url.pathname] || url.pathname) + url.search);
    if (hit) return offlineCopy(hit);
    const notice = await caches.match(OFFLINE_URL, { cacheName: SHELL_CACHE });
    if (!notice) throw error;
    return new Response(await notice.blob(), { status: 200, headers: { "Content-Type": "text/html; charset=utf-8" } });
  }
  const copy = response.clone();
  event.waitUntil(inTurn(() => seen(url.pathname + url.search, copy)));
  return response;
}

// Offline, only a kept agenda address gets its own saved copy: any other address (the login page, another
// week, 总览) gets the offline page, never the agenda under a wrong name.
async function keptPage(path) {
  if (!(await caches.has(PAGES_CACHE))) return null;
  const cache = await caches.open(PAGES_CACHE);
  const note = await meta(cache);
  if (!note || !note.urls.includes(path)) return null;
  return (await cache.match(path)) || null;
}

// A page from the network: a session other than the kept one's drops the kept pages (a sign-out seen
// anywhere); the same session's kept agenda page replaces its saved copy (the last "keep" may be a minute old).
async function seen(path, response) {
  if (!(await caches.has(PAGES_CACHE))) return;
  const cache = await caches.open(PAGES_CACHE);
  const note = await meta(cache);
  const scope = response.headers.get(SCOPE_HEADER); // none on a redirect: it names no session
  if (scope && (!note || scope !== note.scope)) {
    await forget();
    return;
  }
  if (scope && response.status === 200 && !response.redirected && note.urls.includes(path)) {
    await cache.put(path, await stamped(response, Date.now()));
  }
}

async function offlineCopy(hit) {
  const saved = hit.headers.get("X-Pocket-Saved") || "";
  const html = (await hit.text()).replace("<body", '<body data-offline-saved="' + saved + '"');
  const headers = new Headers(hit.headers);
  headers.delete("Content-Length");
  return new Response(html, { status: 200, headers });
}
{% endautoescape %}
