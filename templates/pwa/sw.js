// Pinochle Table's service worker, rendered by scorepad/views/install.py.
// Static files: served from the cache, refreshed behind the scenes (their names carry a hash in
// production, so a new deploy means a new cache). Pages: always from the network; with no network
// the offline page. Never cached: htmx requests (HX-Request header), anything but GET (forms),
// other origins, and pages themselves (they hold scores and the CSRF token, which go stale).
"use strict";

const CONFIG = {{ config }};

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches.open(CONFIG.cache)
      .then(function (cache) { return cache.addAll([CONFIG.offline].concat(CONFIG.precache)); })
      .then(function () { return self.skipWaiting(); })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys()
      .then(function (names) {
        return Promise.all(names.filter(function (name) {
          return name.startsWith("pinochle-") && name !== CONFIG.cache;
        }).map(function (name) { return caches.delete(name); }));
      })
      .then(function () { return self.clients.claim(); })
  );
});

function fromCacheThenRefresh(request) {
  return caches.open(CONFIG.cache).then(function (cache) {
    return cache.match(request).then(function (cached) {
      const fresh = fetch(request).then(function (response) {
        if (response.ok) {
          cache.put(request, response.clone());
        }
        return response;
      });
      if (cached) {
        fresh.catch(function () {});  // offline: the cached copy will do
        return cached;
      }
      return fresh;
    });
  });
}

function networkOrOfflinePage(request) {
  return fetch(request).catch(function () {
    return caches.match(CONFIG.offline);
  });
}

self.addEventListener("fetch", function (event) {
  const request = event.request;
  if (request.method !== "GET" || request.headers.has("HX-Request")) {
    return;  // the browser's own handling: straight to the network, nothing kept
  }
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) {
    return;
  }
  if (url.pathname.startsWith(CONFIG.static)) {
    event.respondWith(fromCacheThenRefresh(request));
  } else if (request.mode === "navigate") {
    event.respondWith(networkOrOfflinePage(request));
  }
});
