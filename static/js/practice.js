// Practice table, on top of a page that works without it:
// - "Pass these N cards" stays disabled until exactly N cards are ticked (without JavaScript the
//   button is always there and the server refuses a wrong count in words);
// - the pace: "Quick pace" (on the table and the start form) is kept in a cookie, so the server
//   draws the next page at that pace from its first frame (body.pace-quick);
// - a tap on the table or the hand while cards are landing shows them all at once;
// - a card already shown before an answer came back does not land again, and the hand waits only
//   for the cards that are new (the classes play-N and wait-N count the new ones).
(function () {
  "use strict";

  const PACE_COOKIE = "practice_pace";
  const GATHER_STEPS = 3; // as in the page (scorepad/pages/practice.py)

  function update(form) {
    const count = Number(form.dataset.passCount);
    const chosen = form.querySelectorAll("input[name=pass]:checked").length;
    const button = form.querySelector(".pass-button");
    if (!button || !count) {
      return;
    }
    button.disabled = chosen !== count;
    button.textContent = chosen === count
      ? "Pass these " + count + " cards"
      : "Pass these " + count + " cards (" + chosen + " chosen)";
  }

  // -- the pace ---------------------------------------------------------------------------------

  function quick() {
    return document.cookie.split("; ").indexOf(PACE_COOKIE + "=quick") !== -1;
  }

  function setPace(isQuick) {
    const secure = location.protocol === "https:" ? "; Secure" : "";
    document.cookie = PACE_COOKIE + "=" + (isQuick ? "quick" : "normal") +
      "; path=/; max-age=31536000; SameSite=Lax" + secure;
    document.body.classList.toggle("pace-quick", isQuick);
    showPace(document);
  }

  function showPace(root) {
    const isQuick = quick();
    root.querySelectorAll(".pace-setting").forEach(function (setting) {
      setting.hidden = false;
    });
    root.querySelectorAll(".pace-toggle").forEach(function (toggle) {
      toggle.setAttribute("aria-pressed", isQuick ? "true" : "false");
    });
    root.querySelectorAll("input.pace-choice").forEach(function (choice) {
      choice.checked = (choice.value === "quick") === isQuick;
    });
  }

  // -- landing cards --------------------------------------------------------------------------------

  function table() {
    return document.getElementById("table");
  }

  function skip() {
    const root = table();
    if (!root) {
      return false;
    }
    const running = root.getAnimations({ subtree: true }).filter(function (animation) {
      return animation.playState !== "finished";
    });
    running.forEach(function (animation) { animation.finish(); });
    return running.length > 0;
  }

  // A played card by where it was played and what it is ("at-left 10♥").
  function keyOf(played) {
    const place = Array.from(played.classList).find(function (name) { return name.indexOf("at-") === 0; });
    const card = played.querySelector(".card");
    return place + " " + (card ? card.textContent.trim() : "");
  }

  function keys(root, selector) {
    return root ? Array.from(root.querySelectorAll(selector)).map(keyOf) : [];
  }

  function snapshot() {
    const root = table();
    return {
      trick: keys(root, ".trick.now .played"),
      gathered: keys(root, ".trick.gathered .played").join("|"),
    };
  }

  // One class of ``prefix`` on ``element``, numbered ``number`` (a card's place in the landing, a
  // hand's wait); shared with table.js, which is loaded after this script on a private table.
  function renumber(element, prefix, number) {
    Array.from(element.classList).forEach(function (name) {
      if (name.indexOf(prefix) === 0) {
        element.classList.remove(name);
      }
    });
    element.classList.add(prefix + number);
  }
  window.Pinochle = Object.assign(window.Pinochle || {}, { renumber: renumber });

  function landOnlyWhatIsNew(before) {
    const root = table();
    if (!root || !before) {
      return;
    }
    const gathered = root.querySelector(".trick.gathered");
    const gatheredSeen = gathered !== null && keys(root, ".trick.gathered .played").join("|") === before.gathered;
    if (gatheredSeen) {
      gathered.classList.add("seen");
    }
    // The trick shown before goes on only if nothing was gathered since and it opens the same
    // way (a seat may play the same card again in the next trick: double-deck, pinochle's pairs).
    const cards = Array.from(root.querySelectorAll(".trick.now .played"));
    const sameTrick = (!gathered || gatheredSeen) && before.trick.length <= cards.length &&
      before.trick.every(function (key, index) { return keyOf(cards[index]) === key; });
    let fresh = 0;
    cards.forEach(function (played, index) {
      if (sameTrick && index < before.trick.length) {
        played.classList.add("seen");
      } else {
        renumber(played, "play-", fresh);
        fresh += 1;
      }
    });
    const now = root.querySelector(".trick.now");
    if (now && gatheredSeen) {
      now.classList.remove("after-gather");
    }
    const hand = root.querySelector(".my-hand");
    if (hand) {
      renumber(hand, "wait-", fresh + (gathered && !gatheredSeen ? GATHER_STEPS : 0));
    }
  }

  // -- wiring ---------------------------------------------------------------------------------------

  let before = null;

  function setUp(root) {
    root.querySelectorAll("form.pass-form").forEach(update);
    showPace(root);
  }

  document.addEventListener("change", function (event) {
    const target = event.target instanceof Element ? event.target : null;
    const form = target ? target.closest("form.pass-form") : null;
    if (form) {
      update(form);
    }
    if (target && target.matches("input.pace-choice")) {
      setPace(target.value === "quick");
    }
  });
  document.addEventListener("click", function (event) {
    const target = event.target instanceof Element ? event.target : null;
    if (!target) {
      return;
    }
    if (target.closest(".pace-toggle")) {
      setPace(!quick());
    } else if (target.closest("#table .felt, #table .my-hand") && skip() &&
        !target.closest("button, input, label, a, summary")) {
      event.preventDefault(); // a tap on the veil only shows the cards; the next one plays
    }
  }, true);
  document.addEventListener("htmx:beforeSwap", function () { before = snapshot(); });
  document.addEventListener("htmx:afterSwap", function () {
    landOnlyWhatIsNew(before);
    before = null;
    setUp(document);
  });
  document.addEventListener("DOMContentLoaded", function () { setUp(document); });
})();
