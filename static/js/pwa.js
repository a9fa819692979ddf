// Pinochle Table as an installable app: register the service worker (/sw.js, rendered by the server
// so its scope is the whole site). Where a browser has no service workers (or plain HTTP on a
// phone, which is not a secure context) the site works exactly the same, only not offline.
(function () {
  "use strict";

  const script = document.currentScript;
  const url = script ? script.dataset.serviceWorker : null;
  if (!url || !("serviceWorker" in navigator)) {
    return;
  }
  window.addEventListener("load", function () {
    navigator.serviceWorker.register(url, { scope: "/" }).catch(function () {
      // Not installable here (e.g. a private window): nothing for the player to do.
    });
  });
})();
