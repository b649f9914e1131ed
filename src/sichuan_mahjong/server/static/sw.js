// The service worker keeps the page's own static files for offline start and the home-screen app. It caches
// nothing else: the API, the websocket and every game message always go to the server.

const CACHE = "scmj-static-v4";
const FILES = [
  "/",
  "/index.html",
  "/style.css",
  "/flow.css",
  "/history.css",
  "/afterhand.js",
  "/history.js",
  "/app.js",
  "/dom.js",
  "/i18n.js",
  "/i18n/zh.json",
  "/i18n/en.json",
  "/lobby.js",
  "/net.js",
  "/panels.js",
  "/phrases.js",
  "/rooms.js",
  "/sounds.js",
  "/table.js",
  "/tiles.js",
  "/manifest.webmanifest",
  "/icon.svg",
  "/icon-192.png",
  "/icon-512.png",
];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

function isStatic(url) {
  return url.origin === self.location.origin && (url.pathname === "/" || FILES.includes(url.pathname));
}

// Network first, so a new version of the page arrives at once; the cached copy when the network is away.
self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || !isStatic(url)) return;
  const key = url.pathname; // "/?room=K7QF" is the same page as "/"
  event.respondWith(
    fetch(request)
      .then((response) => {
        if (response.ok) {
          const copy = response.clone();
          caches.open(CACHE).then((cache) => cache.put(key, copy));
        }
        return response;
      })
      .catch(() => caches.match(key)),
  );
});
