// Pinochle Table: a failed htmx request says so, instead of the page silently doing nothing.
// htmx does not swap a 4xx/5xx response and does nothing on a network failure, so without this a
// tap that failed (logged out in another tab, a server error, no signal) looks like a tap that
// never happened. The banner lives hidden in base.html; this only fills in its text and shows it.
// No innerHTML and no text from the response: the CSP allows no inline code, and a server's error
// page is not for the player.
(function () {
  "use strict";

  function banner() {
    return document.getElementById("request-error");
  }

  function show(message) {
    const element = banner();
    if (!element) {
      return;
    }
    element.querySelector(".request-error-text").textContent = message;
    element.hidden = false;
  }

  function hide() {
    const element = banner();
    if (element) {
      element.hidden = true;
    }
  }

  document.addEventListener("htmx:responseError", function (event) {
    const status = event.detail.xhr ? event.detail.xhr.status : "?";
    show("Something went wrong (" + status + "): reload the page and try again.");
  });

  document.addEventListener("htmx:sendError", function () {
    show("Could not reach the server: check the connection and try again.");
  });

  // A later request that went through means the trouble has passed: the old warning would mislead.
  document.addEventListener("htmx:afterRequest", function (event) {
    if (event.detail.successful === true) {
      hide();
    }
  });

  document.addEventListener("click", function (event) {
    if (event.target instanceof Element && event.target.closest(".request-error-dismiss")) {
      hide();
    }
  });

  // Hand form: fewer touches. Tapping the trump moves the cursor to the first empty meld box, and the
  // keyboard's Enter ("next") moves on from the bid and the meld boxes to the next empty box instead of
  // recording half a hand; in a trick box it records. Without JavaScript every box is simply tapped.
  function numberBoxes(form) {
    return Array.prototype.slice.call(form.querySelectorAll("input[type=number]:not(#id_bid)"));
  }

  // Only a tap moves the cursor: a keyboard user stepping through the suits with the arrows keeps it.
  let lastTap = 0;
  document.addEventListener("pointerdown", function () {
    lastTap = Date.now();
  });

  document.addEventListener("change", function (event) {
    const input = event.target;
    if (!(input instanceof HTMLInputElement) || input.name !== "trump" || Date.now() - lastTap > 1000) {
      return;
    }
    const form = input.closest("#hand-form");
    const empty = form && numberBoxes(form).find(function (box) { return box.value === ""; });
    if (empty && input.value !== "none") {
      empty.focus();
    }
  });

  document.addEventListener("keydown", function (event) {
    const input = event.target;
    if (event.key !== "Enter" || !(input instanceof HTMLInputElement) || input.type !== "number") {
      return;
    }
    const form = input.closest("#hand-form");
    if (!form) {
      return;
    }
    // Never the browser's implicit submit: it would press the form's first button (a bid chip).
    event.preventDefault();
    // From the bid or a meld box, on to the next empty box; from a trick box (one may stay blank:
    // it is worked out), record.
    const boxes = numberBoxes(form);
    const next = input.name.startsWith("tricks_") ? null
      : boxes.slice(boxes.indexOf(input) + 1).find(function (box) { return box.value === ""; });
    if (next) {
      next.focus();
    } else {
      form.querySelector("button[name=save]").click();
    }
  });

  // Invitation links: "Copy the link" and "Share…" (the phone's share sheet), shown only where they
  // work; without them the link sits in a read-only box to select by hand.
  function showWhereSupported() {
    document.querySelectorAll(".copy-button").forEach(function (button) {
      button.hidden = !(navigator.clipboard && window.isSecureContext);
    });
    document.querySelectorAll(".share-button").forEach(function (button) {
      button.hidden = typeof navigator.share !== "function";
    });
  }
  document.addEventListener("DOMContentLoaded", showWhereSupported);

  document.addEventListener("click", function (event) {
    const target = event.target instanceof Element ? event.target : null;
    const copy = target && target.closest("[data-copy]");
    const share = target && target.closest("[data-share]");
    if (copy) {
      const box = document.getElementById(copy.getAttribute("data-copy"));
      navigator.clipboard.writeText(box.value).then(function () {
        copy.textContent = "Copied";
      });
    } else if (share) {
      const link = document.getElementById(share.getAttribute("data-share")).value;
      navigator.share({ title: share.getAttribute("data-share-title"), url: link }).catch(function () {});
    }
  });
})();
