// The service worker (served at /sw.js by server/pwa.py). It keeps the page's shell, every file
// under /static/, so the installed app opens at once, and answers a page the network cannot
// fetch with the offline page. It never keeps a table's state: the API, the websocket, the
// metrics, the history and the tables go to the network untouched, so what a page shows is
// always the server's, never a stale copy.

// The server fills these two lines in: the shell's addresses, and a hash of the static files.
// A new release is a new worker with a new cache; the old cache goes when it takes over.
const SHELL = [];
const VERSION = "unversioned";
const PREFIX = "callbreak-shell-";
const CACHE = PREFIX + VERSION;
const OFFLINE = "/static/offline.html";

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k.startsWith(PREFIX) && k !== CACHE).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

// Only this release's cache answers (caches.match would search an older release's too).
const cached = (request) => caches.open(CACHE).then((cache) => cache.match(request));

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    // A page is always asked of the server (it holds the game); offline, the page that says so.
    event.respondWith(fetch(request).catch(() => cached(OFFLINE)));
  } else if (SHELL.includes(url.pathname) && !url.search) {
    event.respondWith(cached(request).then((hit) => hit || fetch(request)));
  }
  // Anything else is not answered here: the browser fetches it from the network, uncached.
});
