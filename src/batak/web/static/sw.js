// The web client's service worker: it makes Batak installable and lets the page itself open
// without a network. It keeps only the client's own files (the page, its scripts, styles, icons
// and texts); the game is always online: the websocket, the lobby, tables, records and
// statistics are never cached. Files are fetched from the network first (so that an upgraded
// server never runs next to an old script) and the stored copy is used only when the network
// fails. Served at /sw.js so that it looks after every page of the site.
const CACHE = "batak-client-v1";
const SHELL = "/";
// every script of the client (tests/web/test_web_app.py checks that none is missing: a module
// left out would stop the whole page from opening offline)
const FILES = [
  SHELL, "/static/app.js", "/static/i18n.js", "/static/cards.js", "/static/hand.js",
  "/static/teams.js", "/static/prefs.js", "/static/pwa.js", "/static/motion.js",
  "/static/result.js", "/static/chips.js", "/static/fair.js", "/static/progress.js",
  "/static/tournament.js", "/static/story.js", "/static/review.js", "/static/style.css",
  "/static/favicon.svg", "/static/icon.svg", "/static/icon-192.png", "/static/icon-512.png",
  "/static/manifest.webmanifest", "/api/texts", "/api/rules",
];
const PAGES = /^\/(?:$|table\/|join\/|rules(?:\/|$)|tournaments(?:\/|$)|story$)/; // the one page, under every path

self.addEventListener("install", (e) => {
  e.waitUntil(caches.open(CACHE).then((c) => c.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (e) => {
  e.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (e) => {
  const url = new URL(e.request.url);
  if (e.request.method !== "GET" || url.origin !== self.location.origin) return;
  const page = e.request.mode === "navigate" && PAGES.test(url.pathname);
  const key = page ? SHELL : url.pathname;
  if (!page && !FILES.includes(key)) return; // everything else: the network, as if no worker
  e.respondWith(
    fetch(e.request)
      .then((res) => {
        if (res.ok) {
          const copy = res.clone();
          caches.open(CACHE).then((c) => c.put(key, copy));
        }
        return res;
      })
      .catch(() => caches.match(key).then((hit) => hit || Response.error())),
  );
});
