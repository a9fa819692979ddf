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
  // A 429 is not trouble passing: its banner (templates/429.html) was just swapped in, and stays.
  document.addEventListener("htmx:afterRequest", function (event) {
    if (event.detail.successful === true && !(event.detail.xhr && event.detail.xhr.status === 429)) {
      hide();
    }
  });

  document.addEventListener("click", function (event) {
    if (event.target instanceof Element && event.target.closest(".request-error-dismiss")) {
      hide();
    }
  });

  // Hand form: fewer touches (without JavaScript every box is simply tapped).
  // * Tapping the trump puts the cursor in the bidders' trick-points box (the first empty meld box on a
  //   hand with no marriage, which has no trick points).
  // * A trick-points box moves on by itself once no longer number fits in it: no side takes more than
  //   the hand's total (25 in classic), so after "13" or "3" no digit can follow, while after "1" or
  //   "2" one can and the cursor stays. Only typing moves it (not deleting, not pasting), and
  //   someone stepping through the form with Tab keeps the cursor where Tab puts it.
  // * Enter (the keyboard's "next") moves on to the next empty box, in the form's order, and records
  //   on the last one. "Next" skips a trick box that is worked out (every other side's is filled).
  // Nothing waits on a timer: a tap into another box always has the last word.
  function numberBoxes(form) {
    return Array.prototype.slice.call(form.querySelectorAll("input[type=number]:not(#id_bid)"));
  }

  function trickBoxes(form) {
    return Array.prototype.slice.call(form.querySelectorAll(".trick-points input[type=number]"));
  }

  function workedOut(form, box) {
    const tricks = trickBoxes(form);
    return tricks.indexOf(box) >= 0 && tricks.every(function (other) { return other === box || other.value !== ""; });
  }

  function nextBox(form, from) {
    const boxes = numberBoxes(form);
    return boxes.slice(boxes.indexOf(from) + 1).find(function (box) {
      return box.value === "" && !workedOut(form, box);
    });
  }

  function biddersTrickBox(form) {
    const bidder = form.querySelector("input[name=bidder]:checked");
    const seat = bidder && bidder.closest("[data-side]");
    return seat ? form.querySelector("#id_tricks_" + seat.getAttribute("data-side")) : null;
  }

  // Only a tap moves the cursor: a keyboard user stepping through the suits with the arrows, or
  // through the boxes with Tab, keeps it.
  let lastTap = 0;
  let tabbing = false;
  document.addEventListener("pointerdown", function () {
    lastTap = Date.now();
    tabbing = false;
  });

  document.addEventListener("change", function (event) {
    const input = event.target;
    if (!(input instanceof HTMLInputElement) || input.name !== "trump" || Date.now() - lastTap > 1000) {
      return;
    }
    const form = input.closest("#hand-form");
    if (!form) {
      return;
    }
    const bidders = biddersTrickBox(form);
    const target = input.value === "none"
      ? Array.prototype.slice.call(form.querySelectorAll(".meld-points input[type=number]")).find(function (box) { return box.value === ""; })
      : (bidders && bidders.value === "" && !workedOut(form, bidders) ? bidders : nextBox(form, null));
    if (target) {
      target.focus();
    }
  });

  document.addEventListener("input", function (event) {
    const box = event.target;
    if (tabbing || !(box instanceof HTMLInputElement) || event.inputType !== "insertText") {
      return;
    }
    const field = box.closest("#hand-form .trick-points");
    if (!field || !/^[0-9]+$/.test(box.value)) {
      return;
    }
    const points = Number(box.value);
    const most = Number(field.getAttribute("data-trick-total"));
    // Complete: a valid number that any further digit would push past the hand's total.
    if (points > 0 && points <= most && points * 10 > most) {
      const next = nextBox(box.form, box);
      if (next) {
        next.focus();
      }
    }
  });

  document.addEventListener("keydown", function (event) {
    if (event.key === "Tab") {
      tabbing = true;
    }
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
    const next = nextBox(form, input);
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
