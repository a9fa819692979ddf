// Pinochle Table's service worker, rendered by scorepad/views/install.py.
// Static files: served from the cache, refreshed behind the scenes (their names carry a hash in
// production, so a new deploy means a new cache). Pages: always from the network; with no network
// the offline page, except a game page the player opened before: its last copy, so hands can be
// entered at the table with no signal (static/js/outbox.js keeps them until they are sent).
// Never cached: htmx requests (HX-Request header), anything but GET (forms), other origins, and
// every other page (they hold scores and the CSRF token, which go stale). Logging out drops the
// kept game pages, so the next person on this phone finds none offline.
"use strict";

const CONFIG = {{ config }};
// "/games/0/" with any id: the game page itself, not its hands, edits or exports.
const GAME_PAGE = new RegExp("^" + CONFIG.game_page.replace("/0/", "/[0-9]+/") + "$");

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

// Kept under the address without its query: a count-it round trip's "?meld_0=24" is the same page.
function gamePageKey(url) {
  return url.origin + url.pathname;
}

function networkThenKeptGamePage(request, url) {
  return fetch(request).then(function (response) {
    // Only the page itself: not a redirect to the log-in page, not an error.
    if (response.ok && !response.redirected && response.type === "basic") {
      const copy = response.clone();
      caches.open(CONFIG.cache).then(function (cache) { return cache.put(gamePageKey(url), copy); });
    }
    return response;
  }).catch(function () {
    return caches.match(gamePageKey(url)).then(function (kept) {
      return kept || caches.match(CONFIG.offline);
    });
  });
}

function dropKeptGamePages() {
  return caches.open(CONFIG.cache).then(function (cache) {
    return cache.keys().then(function (requests) {
      return Promise.all(requests.filter(function (kept) {
        return GAME_PAGE.test(new URL(kept.url).pathname);
      }).map(function (kept) { return cache.delete(kept); }));
    });
  });
}

self.addEventListener("fetch", function (event) {
  const request = event.request;
  if (request.method === "POST" && new URL(request.url).pathname === CONFIG.logout) {
    event.waitUntil(dropKeptGamePages());  // the log-out itself goes on to the network untouched
    return;
  }
  if (request.method !== "GET" || request.headers.has("HX-Request")) {
    return;  // the browser's own handling: straight to the network, nothing kept
  }
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) {
    return;
  }
  if (url.pathname.startsWith(CONFIG.static)) {
    event.respondWith(fromCacheThenRefresh(request));
  } else if (request.mode === "navigate" && GAME_PAGE.test(url.pathname)) {
    event.respondWith(networkThenKeptGamePage(request, url));
  } else if (request.mode === "navigate") {
    event.respondWith(networkOrOfflinePage(request));
  }
});
