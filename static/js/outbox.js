// Pinochle Table: a hand entered with no connection is kept on this phone and sent, exactly once,
// when the connection returns.
// * "Record hand" (or "Thrown in") with no connection, or when the request cannot reach the server,
//   puts the hand in this phone's outbox (localStorage) instead. It shows above the scoreboard as
//   "waiting to send", with its score worked out here and the totals it would make, both marked
//   provisional (the server is the one scorer), and the form moves on to the next hand. While a hand
//   waits, the next ones wait behind it, so they reach the server in the order they were played.
// * Each entry carries its own key (the form's hidden entry_key, made anew here for every entry):
//   the server stores an entry once however often it arrives, so a send whose answer was lost is
//   simply sent again.
// * Each hand is sent as the hand number it was entered as. If another phone recorded that hand
//   meanwhile, the server answers 409 with its version: both are shown in words, and nothing more
//   is sent until the player taps "Record mine as hand N" or "Discard mine". A hand the rules refuse
//   is shown with the refusal, to open in the form or discard.
// Without JavaScript none of this exists and the form is a plain POST (the server's own entry key
// still makes a resent form harmless). No inline code and no innerHTML: the CSP allows neither.
(function () {
  "use strict";

  const STORE = "pinochle-outbox";
  const RETRY_MS = 15000;
  const KEPT = "kept on this phone: it is sent when the connection returns.";

  // ---- the outbox in localStorage: every game's waiting hands, in the order they were entered

  function load() {
    try {
      const entries = JSON.parse(localStorage.getItem(STORE) || "[]");
      return Array.isArray(entries) ? entries : [];
    } catch (error) {
      return [];
    }
  }

  function save(entries) {
    localStorage.setItem(STORE, JSON.stringify(entries));
  }

  function box() {
    return document.getElementById("outbox");
  }

  function handForm() {
    const form = document.getElementById("hand-form");
    return form && form.hasAttribute("data-offline-rules") ? form : null;
  }

  function thisGame() {
    return box().getAttribute("data-game-page");
  }

  function ofThisGame(entries) {
    return entries.filter(function (entry) { return entry.game === thisGame(); });
  }

  function newKey() {
    if (window.crypto && typeof window.crypto.randomUUID === "function") {
      return window.crypto.randomUUID();
    }
    const bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (byte) { return byte.toString(16).padStart(2, "0"); }).join("");
  }

  // ---- what the page shows: side names, totals, player names

  function sideNames() {
    return Array.prototype.map.call(document.querySelectorAll("#scoreboard .totals .side-name"), function (name) {
      return name.textContent.trim();
    });
  }

  function totals() {
    return Array.prototype.map.call(document.querySelectorAll("#scoreboard .totals .points"), function (points) {
      return Number(points.textContent.trim());
    });
  }

  function signed(points) {
    return points > 0 ? "+" + points : points < 0 ? "\u2212" + -points : "0";
  }

  // The provisional score of a hand (static/js/provisional.js).
  function provisionalScores(rules, hand) {
    return window.PinochleProvisional.scores(rules, hand);
  }

  // ---- reading the form into a hand, with the checks a hand needs before it can wait

  function numberIn(form, name) {
    const input = form.querySelector("[name='" + name + "']");
    if (!input || input.value.trim() === "") {
      return null;
    }
    return /^[0-9]+$/.test(input.value.trim()) ? Number(input.value.trim()) : NaN;
  }

  function checked(form, name) {
    return form.querySelector("input[name='" + name + "']:checked");
  }

  function seatName(radio) {
    const label = radio.closest("label");
    const words = label ? label.querySelector("span") : null;
    return words && words.firstChild ? words.firstChild.textContent.trim() : "";
  }

  // "♥ hearts": the tapped suit's symbol and name, as its button shows them.
  function suitWords(radio) {
    const label = radio.closest("label");
    const pip = label.querySelector(".pip");
    const symbol = pip ? pip.textContent.trim() : "";
    return (symbol + " " + label.textContent.replace(symbol, "").trim()).trim();
  }

  // The hand as entered, or a sentence saying what is missing (as the server would word it).
  function readHand(form) {
    const bidder = checked(form, "bidder");
    const trump = checked(form, "trump");
    const bid = numberIn(form, "bid");
    if (!bidder) {
      return "Tap who won the bid.";
    }
    if (bid === null || isNaN(bid)) {
      return "Enter the bid as a whole number.";
    }
    if (!trump) {
      return "Tap the trump suit.";
    }
    const names = sideNames();
    const meld = names.map(function (name, side) { return numberIn(form, "meld_" + side) || 0; });
    const tricks = names.map(function (name, side) { return numberIn(form, "tricks_" + side); });
    if (meld.some(isNaN) || tricks.some(isNaN)) {
      return "Meld and trick points are whole numbers.";
    }
    const blanks = tricks.filter(function (points) { return points === null; }).length;
    const noMarriage = trump.value === "none";
    if (noMarriage && blanks < tricks.length) {
      return "No marriage means the hand was not played: clear the trick points, or pick the trump.";
    }
    if (blanks > 1 && blanks < tricks.length) {
      return "Fill in the trick points of every side but one.";
    }
    const total = Number(form.querySelector(".trick-points").getAttribute("data-trick-total"));
    if (blanks === 1) {
      const others = tricks.reduce(function (sum, points) { return sum + (points || 0); }, 0);
      tricks[tricks.indexOf(null)] = total - others;
    }
    const played = blanks < tricks.length;
    return {
      bidder: seatName(bidder),
      side: Number(bidder.closest("[data-side]").getAttribute("data-side")),
      bid: bid,
      trump: noMarriage ? "" : trump.value,
      suit: noMarriage ? "" : suitWords(trump),
      meld: meld,
      tricks: played ? tricks : null,
      took: names.map(function (name, side) {
        const tick = form.querySelector("[name='took_" + side + "']");
        return Boolean((played && tricks[side] > 0) || (tick && tick.checked));
      }),
    };
  }

  // "Cat bid 50 ♠ spades · Ann & Cat: meld 20, trick points 30; …", as the server words a hand.
  function handWords(entry) {
    if (entry.thrownIn) {
      return "thrown in";
    }
    const hand = entry.hand;
    const names = sideNames();
    const suit = hand.trump ? hand.suit : "with no marriage";
    const sides = hand.meld.map(function (meld, side) {
      const tricks = hand.tricks === null ? "none" : hand.tricks[side];
      return (names[side] || "side " + (side + 1)) + ": meld " + meld + ", trick points " + tricks;
    });
    return hand.bidder + " bid " + hand.bid + " " + suit + " \u00b7 " + sides.join("; ");
  }

  // ---- keeping a hand, and moving the form on to the next one

  let dealerTouched = false;
  let formTouched = false;

  function keep(form, thrownIn) {
    const hand = thrownIn ? null : readHand(form);
    if (typeof hand === "string") {
      say(form, "Not kept: " + hand);
      return;
    }
    const fields = [];
    new FormData(form).forEach(function (value, name) {
      if (name !== "csrfmiddlewaretoken" && name !== "save" && !(name === "dealer" && !dealerTouched)) {
        fields.push([name, String(value)]);
      }
    });
    // Not chosen by hand, the dealer is left to the server: the seat after the last hand's (§8),
    // right whatever was recorded in between.
    fields.push(thrownIn ? ["thrown_in", "1"] : ["save", "1"]);
    const rules = JSON.parse(form.getAttribute("data-offline-rules"));
    const entries = load();
    const number = numberIn(form, "number");
    entries.push({
      game: thisGame(),
      action: box().getAttribute("data-action"),
      key: form.querySelector("[name='entry_key']").value,
      number: number,
      fields: fields,
      thrownIn: thrownIn,
      hand: hand,
      scores: hand ? provisionalScores(rules, hand) : sideNames().map(function () { return 0; }),
      status: "waiting",
    });
    save(entries);
    moveOn(form, number + 1, 1);
    say(form, "Hand " + (number + 1) + " " + KEPT);
    show();
    box().scrollIntoView({ block: "start" });
    sendAll();
  }

  function say(form, words) {
    const preview = form.querySelector("#hand-preview");
    if (preview) {
      preview.textContent = words;
    }
  }

  function setNumber(form, number) {
    form.querySelector("[name='number']").value = String(number);
    const heading = form.querySelector(".hand-head h2");
    if (heading) {
      heading.textContent = "Hand " + (number + 1);
    }
  }

  // A blank form for hand ``number``, dealt ``deals`` seats on from the dealer it showed, with a new key.
  function moveOn(form, number, deals) {
    setNumber(form, number);
    form.querySelectorAll("input[type=radio], input[type=checkbox]").forEach(function (input) { input.checked = false; });
    form.querySelectorAll("input[type=number]:not([name=bid])").forEach(function (input) { input.value = ""; });
    const lowest = form.querySelector(".bid-chip");
    if (lowest) {
      form.querySelector("[name=bid]").value = lowest.value;
    }
    const dealer = form.querySelector("select[name=dealer]");
    if (dealer && dealer.options.length) {
      dealer.selectedIndex = (dealer.selectedIndex + deals) % dealer.options.length;
    }
    dealerTouched = false;
    formTouched = false;
    form.querySelector("[name='entry_key']").value = newKey();
  }

  // ---- sending, in order, one at a time

  let sending = false;

  function csrfToken() {
    const input = document.querySelector("input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  }

  function firstText(doc, selector) {
    const element = doc.querySelector(selector);
    return element ? element.textContent.replace(/\s+/g, " ").trim() : "";
  }

  // What the server's answer means: the hand stored, a conflict, a refusal, or "try again later".
  function outcomeOf(entry, response) {
    if (response.redirected && new URL(response.url).pathname !== entry.game) {
      return Promise.resolve({ status: "waiting", note: "Log in again on this phone to send it." });
    }
    if (response.redirected) {
      // Back to the game page: stored, unless it says why not ("The game is over: …").
      return response.text().then(function (page) {
        const doc = new DOMParser().parseFromString(page, "text/html");
        const refusal = firstText(doc, ".messages .message");
        return refusal ? { status: "refused", message: refusal, nextNumber: entry.number } : { status: "stored" };
      });
    }
    if (response.status === 409 || response.status === 200) {
      return response.text().then(function (page) {
        const doc = new DOMParser().parseFromString(page, "text/html");
        const next = doc.querySelector("#hand-form [name='number']");
        if (response.status === 409) {
          return {
            status: "conflict",
            message: firstText(doc, "#hand-conflict strong"),
            stored: firstText(doc, "#hand-conflict .conflict-stored"),
            nextNumber: next ? Number(next.value) : entry.number + 1,
          };
        }
        const refusal = firstText(doc, "#hand-form .errorlist li") || firstText(doc, "#hand-form .form-errors") ||
          firstText(doc, "#scorepad > .message") || "The server did not take it.";
        return { status: "refused", message: refusal, nextNumber: next ? Number(next.value) : entry.number };
      });
    }
    if (response.status === 403) {
      return Promise.resolve({ status: "waiting", note: "The server asks for a fresh page: reload it to send." });
    }
    return Promise.resolve({ status: "waiting", note: "The server could not take it just now: it is tried again shortly." });
  }

  function post(entry) {
    const body = new URLSearchParams();
    entry.fields.forEach(function (field) { body.append(field[0], field[1]); });
    body.append("csrfmiddlewaretoken", csrfToken());
    return fetch(entry.action, { method: "POST", body: body, credentials: "same-origin" }).then(function (response) {
      return outcomeOf(entry, response);
    });
  }

  function update(key, change) {
    const entries = load();
    const entry = entries.find(function (kept) { return kept.key === key; });
    if (entry) {
      change(entry, entries);
    }
    save(entries.filter(function (kept) { return kept.status !== "stored"; }));
  }

  function sendAll() {
    const waiting = ofThisGame(load());
    if (sending || !waiting.length || !navigator.onLine) {
      return;  // no connection for sure: the "online" event (or the next try) sends them
    }
    const entry = waiting[0];
    if (entry.status !== "waiting") {
      return;  // a conflict or a refusal first needs the player's word; the hands after it wait
    }
    sending = true;
    post(entry).then(function (outcome) {
      update(entry.key, function (kept) {
        kept.status = outcome.status;
        kept.note = outcome.note || "";
        kept.message = outcome.message || "";
        kept.stored = outcome.stored || "";
        kept.nextNumber = outcome.nextNumber;
      });
      return outcome;
    }, function () {
      return { status: "waiting" };  // still no connection: the hand stays, and so does the page
    }).then(function (outcome) {
      sending = false;
      show();
      if (outcome.status === "stored") {
        if (ofThisGame(load()).length) {
          sendAll();
        } else {
          allSent();
        }
      }
    });
  }

  // Every hand is on the server: the page as the server has it now, unless a hand is being typed.
  function allSent() {
    const form = handForm();
    if (!form || !formTouched) {
      window.location.replace(thisGame());
    } else {
      say(form, "Every waiting hand was sent and recorded.");
    }
  }

  // Hands after one that was moved or dropped follow on from ``start``, in the order entered.
  function renumberFrom(entries, index, start) {
    ofThisGame(entries).slice(index).forEach(function (entry, offset) {
      entry.number = start + offset;
      entry.fields.forEach(function (field) {
        if (field[0] === "number") {
          field[1] = String(entry.number);
        }
      });
    });
    const form = handForm();
    if (form) {
      const mine = ofThisGame(entries);
      setNumber(form, mine.length ? mine[mine.length - 1].number + 1 : start);
    }
  }

  function recordAsNext(key) {
    const entries = load();
    const mine = ofThisGame(entries);
    const index = mine.findIndex(function (entry) { return entry.key === key; });
    if (index < 0) {
      return;
    }
    mine[index].status = "waiting";
    renumberFrom(entries, index, mine[index].nextNumber);
    save(entries);
    show();
    sendAll();
  }

  function discard(key) {
    const entries = load();
    const mine = ofThisGame(entries);
    const index = mine.findIndex(function (entry) { return entry.key === key; });
    if (index < 0) {
      return;
    }
    const start = mine[index].nextNumber;
    const left = entries.filter(function (entry) { return entry.key !== key; });
    renumberFrom(left, index, start);
    save(left);
    show();
    sendAll();
  }

  // A refused hand goes back into the form (the game page, filled in from its address), to correct.
  function openInForm(key) {
    const entries = load();
    const entry = entries.find(function (kept) { return kept.key === key; });
    if (!entry) {
      return;
    }
    const query = new URLSearchParams();
    entry.fields.forEach(function (field) {
      if (field[0] !== "number" && field[0] !== "save" && field[0] !== "thrown_in") {
        query.append(field[0], field[1]);
      }
    });
    discard(key);
    window.location.assign(thisGame() + "?" + query.toString());
  }

  // ---- drawing the outbox: each waiting hand, then the totals they would make

  function element(tag, className, text) {
    const made = document.createElement(tag);
    if (className) {
      made.className = className;
    }
    if (text) {
      made.textContent = text;
    }
    return made;
  }

  function button(words, action, key) {
    const made = element("button", "outbox-" + action, words);
    made.type = "button";
    made.setAttribute("data-outbox-action", action);
    made.setAttribute("data-outbox-key", key);
    return made;
  }

  function row(entry) {
    const item = element("li", "outbox-hand " + entry.status);
    const title = element("p", "outbox-title");
    title.appendChild(element("strong", "", "Hand " + (entry.number + 1)));
    title.appendChild(document.createTextNode(": " + handWords(entry) + " "));
    const tags = { waiting: "waiting to send", conflict: "not sent: recorded on another phone", refused: "not recorded" };
    title.appendChild(element("span", "tag" + (entry.status === "waiting" ? "" : " bad"), tags[entry.status]));
    item.appendChild(title);
    const names = sideNames();
    const changes = entry.scores.map(function (score, side) { return names[side] + " " + signed(score); });
    item.appendChild(element("p", "outbox-score", changes.join(", ") + " (provisional)"));
    if (entry.note) {
      item.appendChild(element("p", "hint", entry.note));
    }
    if (entry.status === "conflict") {
      item.appendChild(element("p", "", (entry.message || "This hand was recorded on another phone meanwhile.") +
        " Nothing was merged: keep one or the other."));
      const versions = element("dl", "conflict-versions");
      versions.appendChild(element("dt", "", "Stored as hand " + (entry.number + 1)));
      versions.appendChild(element("dd", "conflict-stored", entry.stored));
      versions.appendChild(element("dt", "", "Entered on this phone"));
      versions.appendChild(element("dd", "conflict-yours", handWords(entry)));
      item.appendChild(versions);
      item.appendChild(button("Record mine as hand " + (entry.nextNumber + 1), "record", entry.key));
      item.appendChild(button("Discard mine", "discard", entry.key));
    } else if (entry.status === "refused") {
      item.appendChild(element("p", "errorlist", entry.message));
      item.appendChild(button("Open it in the form", "open", entry.key));
      item.appendChild(button("Discard it", "discard", entry.key));
    }
    return item;
  }

  function show() {
    const outbox = box();
    const mine = ofThisGame(load());
    const list = outbox.querySelector(".outbox-hands");
    list.replaceChildren.apply(list, mine.map(row));
    outbox.hidden = mine.length === 0;
    const names = sideNames();
    const after = totals().map(function (total, side) {
      return mine.reduce(function (sum, entry) { return sum + (entry.scores[side] || 0); }, total);
    });
    outbox.querySelector(".outbox-totals").textContent = mine.length
      ? "Totals once sent (provisional): " + after.map(function (total, side) { return names[side] + " " + total; }).join(" \u00b7 ")
      : "";
  }

  // The stepper's − and +, as the server steps them (views.games._stepped_bid): never under the minimum.
  function stepBid(form, up) {
    const rules = JSON.parse(form.getAttribute("data-offline-rules"));
    const bidBox = form.querySelector("[name=bid]");
    const typed = /^[0-9]+$/.test(bidBox.value.trim()) ? Number(bidBox.value.trim()) : rules.min_bid;
    const current = Math.max(typed, rules.min_bid);
    const step = function (bid) { return bid < 60 ? rules.bid_steps[0] : rules.bid_steps[1]; };
    bidBox.value = String(up ? current + step(current) : Math.max(rules.min_bid, current - step(current - 1)));
    formTouched = true;
  }

  // ---- wiring

  let lastSubmitter = "";

  function start() {
    if (!box()) {
      return;
    }
    const form = handForm();
    const mine = ofThisGame(load());
    if (form) {
      // A page from the phone's cache shows the key it was first given: every entry gets its own.
      form.querySelector("[name='entry_key']").value = newKey();
      const shown = numberIn(form, "number");
      const after = mine.length ? mine[mine.length - 1].number + 1 : shown;
      if (after > shown) {
        moveOn(form, after, after - shown);
      }
    }
    show();
    sendAll();
    window.setInterval(sendAll, RETRY_MS);
  }

  document.addEventListener("DOMContentLoaded", start);
  window.addEventListener("online", sendAll);

  // Capture, before htmx sees the submit: with no connection, or with hands still waiting (the next
  // one must follow them), "Record hand" and "Thrown in" keep the hand here.
  document.addEventListener("submit", function (event) {
    const form = handForm();
    if (!form || event.target !== form || !box()) {
      return;
    }
    lastSubmitter = event.submitter ? event.submitter.name : "save";
    if (lastSubmitter !== "save" && lastSubmitter !== "thrown_in") {
      return;
    }
    if (navigator.onLine && !ofThisGame(load()).length) {
      return;
    }
    event.preventDefault();
    event.stopPropagation();
    keep(form, lastSubmitter === "thrown_in");
  }, true);

  // The request that records a hand never reached the server (or its answer never came back):
  // the hand waits here, with its key, so sending it again cannot record it twice.
  document.addEventListener("htmx:sendError", function (event) {
    const form = handForm();
    if (!form || event.detail.elt !== form || (lastSubmitter !== "save" && lastSubmitter !== "thrown_in")) {
      return;
    }
    keep(form, lastSubmitter === "thrown_in");
    const banner = document.getElementById("request-error");
    if (banner) {
      banner.hidden = true;  // nothing was lost: the outbox says where the hand is
    }
  });

  // With no connection, the preview is worked out here and the poll for other phones' hands waits.
  document.addEventListener("htmx:beforeRequest", function (event) {
    const form = handForm();
    if (navigator.onLine || !form || !box()) {
      return;
    }
    const elt = event.detail.elt;
    if (elt.id === "live-game") {
      event.preventDefault();
    } else if (elt.id === "hand-preview") {
      event.preventDefault();
      const hand = readHand(form);
      if (typeof hand === "string") {
        say(form, "Preview: " + hand);
      } else {
        const names = sideNames();
        const scores = provisionalScores(JSON.parse(form.getAttribute("data-offline-rules")), hand);
        say(form, "Preview with no connection (provisional): " +
          scores.map(function (score, side) { return names[side] + " " + signed(score); }).join(", "));
      }
    } else if (elt.classList.contains("bid-chip")) {
      event.preventDefault();
      form.querySelector("[name=bid]").value = elt.value;
    } else if (elt.name === "bid_step") {
      event.preventDefault();
      stepBid(form, elt.value === "+");
    }
  });

  document.addEventListener("change", function (event) {
    const form = handForm();
    if (form && event.target instanceof Element && form.contains(event.target)) {
      formTouched = true;
      if (event.target.name === "dealer") {
        dealerTouched = true;
      }
    }
  });
  document.addEventListener("input", function (event) {
    const form = handForm();
    if (form && event.target instanceof Element && form.contains(event.target)) {
      formTouched = true;
    }
  });

  document.addEventListener("click", function (event) {
    const target = event.target instanceof Element ? event.target.closest("[data-outbox-action]") : null;
    if (!target) {
      return;
    }
    const key = target.getAttribute("data-outbox-key");
    const action = target.getAttribute("data-outbox-action");
    if (action === "record") {
      recordAsNext(key);
    } else if (action === "discard") {
      discard(key);
    } else if (action === "open") {
      openInForm(key);
    }
  });
})();
