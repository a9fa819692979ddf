// A private table, on top of a page that works without it (the pace toggle is practice.js's):
// - each screen the stream or an answer brings lands the cards new since the screen it replaces
//   (the server numbers them); a card this phone has already shown does not land again: a phone
//   that played gets its screen twice (its answer, then the stream), and the second lands nothing;
// - a screen the stream drew before this phone's answer came back (an older version) is not shown;
// - a tap on the felt or the hand while cards are landing shows them all at once.
(function () {
  "use strict";

  const GATHER_STEPS = 3; // as in the page (scorepad/pages/practice.py)

  function screen() {
    return document.getElementById("screen");
  }

  // "game.hand.cards": where a screen stands in the hand.
  function markOf(root) {
    const parts = (root && root.dataset.mark ? root.dataset.mark : "").split(".");
    return parts.length === 3 ? { hand: parts[0] + "." + parts[1], cards: Number(parts[2]) } : null;
  }

  const renumber = window.Pinochle.renumber; // practice.js's, loaded first

  function versionOf(html) {
    const found = /data-version="(\d+)"/.exec(html || "");
    return found ? Number(found[1]) : null;
  }

  function landOnlyWhatIsNew(shown) {
    const root = screen();
    const now = markOf(root);
    if (!root || !shown || !now || now.hand !== shown.hand) {
      return;
    }
    let fresh = 0;
    let landed = 0;
    const gathered = root.querySelector(".trick.gathered");
    root.querySelectorAll(".trick .played[data-n]").forEach(function (played) {
      if (Number(played.dataset.n) < shown.cards) {
        played.classList.add("seen");
      }
      if (!played.classList.contains("seen")) {
        renumber(played, "play-", fresh);
        fresh += 1;
        if (gathered && gathered.contains(played)) {
          landed += 1;
        }
      }
    });
    // The won trick's last card was on this phone already: the trick was gathered there.
    const gatheredSeen = gathered !== null && Array.from(gathered.querySelectorAll(".played[data-n]"))
      .every(function (played) { return Number(played.dataset.n) < shown.cards; });
    if (gathered) {
      gathered.classList.toggle("seen", gatheredSeen);
      renumber(gathered, "landed-", landed);
    }
    const trick = root.querySelector(".trick.now");
    if (trick && gatheredSeen) {
      trick.classList.remove("after-gather");
    }
    const hand = root.querySelector(".my-hand");
    if (hand) {
      renumber(hand, "wait-", fresh + (gathered && !gatheredSeen ? GATHER_STEPS : 0));
    }
  }

  function skip() {
    const root = screen();
    if (!root) {
      return false;
    }
    const running = root.getAnimations({ subtree: true }).filter(function (animation) {
      return animation.playState !== "finished";
    });
    running.forEach(function (animation) { animation.finish(); });
    return running.length > 0;
  }

  // The furthest this phone has shown in the hand: every card before it is on the phone already.
  let furthest = null;
  function remember() {
    const now = markOf(screen());
    if (now && (!furthest || furthest.hand !== now.hand || furthest.cards < now.cards)) {
      furthest = now;
    }
  }
  document.addEventListener("DOMContentLoaded", remember);
  document.addEventListener("htmx:sseBeforeMessage", function (event) {
    const root = screen();
    const coming = versionOf(event.detail && event.detail.data);
    if (root && coming !== null && coming < Number(root.dataset.version)) {
      event.preventDefault();
    }
  });
  document.addEventListener("htmx:afterSwap", function () {
    landOnlyWhatIsNew(furthest);
    remember();
  });
  // A phone away: the grace left before a bot plays for it, counted down each second from what the
  // server drew (data-seconds: a count, not a time of day, so a phone's clock set wrong counts right).
  function startCountdowns() {
    const now = Date.now();
    document.querySelectorAll("#screen time.countdown[data-seconds]").forEach(function (clock) {
      if (!clock.dataset.countsTo) {
        clock.dataset.countsTo = String(now + Number(clock.dataset.seconds) * 1000);
      }
    });
  }
  function countDown() {
    document.querySelectorAll("#screen time.countdown[data-counts-to]").forEach(function (clock) {
      const left = Math.max(0, Math.ceil((Number(clock.dataset.countsTo) - Date.now()) / 1000));
      const text = left > 0 ? left + " s" : "a moment";
      if (clock.textContent !== text) {
        clock.textContent = text;
        clock.setAttribute("datetime", "PT" + left + "S");
      }
    });
  }
  document.addEventListener("DOMContentLoaded", startCountdowns);
  document.addEventListener("htmx:afterSwap", startCountdowns);
  window.setInterval(countDown, 1000);
  // The invitation: the phone's own share sheet where the browser has one, else a copy button
  // (the link itself stays on the page, wrapped, for a long press without either).
  function offerInvite() {
    const share = document.querySelector(".share-link");
    const copy = document.querySelector(".copy-link");
    if (share && typeof navigator.share === "function") {
      share.hidden = false;
    } else if (copy && navigator.clipboard) {
      copy.hidden = false;
    }
  }
  document.addEventListener("DOMContentLoaded", offerInvite);
  document.addEventListener("click", function (event) {
    const target = event.target instanceof Element ? event.target : null;
    const button = target && target.closest(".share-link, .copy-link");
    if (!button) {
      return;
    }
    const link = button.dataset.link;
    const said = document.querySelector(".invite-send .copied");
    if (button.classList.contains("share-link")) {
      navigator.share({ title: document.title, url: link }).catch(function () {});
    } else {
      navigator.clipboard.writeText(link).then(function () {
        if (said) { said.textContent = "Copied."; }
      }, function () {
        if (said) { said.textContent = "Could not copy: press and hold the link instead."; }
      });
    }
  });
  document.addEventListener("click", function (event) {
    const target = event.target instanceof Element ? event.target : null;
    if (target && target.closest("#screen .felt, #screen .my-hand") && skip() &&
        !target.closest("button, input, label, a, summary")) {
      event.preventDefault(); // a tap on the veil only shows the cards; the next one plays
    }
  }, true);
})();
