// Pinochle Table: the provisional score of a hand kept on the phone with no connection
// (static/js/outbox.js): score_hand (scorepad/engine/scoring.py) for the house rules the hand form
// names in data-offline-rules (HandForm.offline_rules). Shown, marked provisional, only until the
// server, the one scorer, has recorded the hand. tests/browser/test_offline_browser.py holds it to
// score_hand hand by hand.
//
// A hand: { side: the bidders' side, bid, trump: "" for no marriage, meld: per side,
//           tricks: per side or null (not played), took: per side, whether it took a trick }.
window.PinochleProvisional = (function () {
  "use strict";

  function sideTake(rules, meld, points, took) {
    if (rules.rule_of_20 && points < rules.rule_of_20[1]) {
      return null;  // under the trick-points threshold the side scores nothing at all
    }
    if ((rules.meld_requires_trick && !took) || (rules.rule_of_20 && meld < rules.rule_of_20[0])) {
      return points;  // the meld is lost
    }
    return meld + points;
  }

  function provisionalScores(rules, hand) {
    return hand.meld.map(function (meld, side) {
      const played = hand.tricks !== null;
      if (side === hand.side) {
        const shortMeld = rules.rule_of_20 && meld < rules.rule_of_20[0];
        if (!hand.trump || shortMeld || !played) {
          return -hand.bid;  // a forfeit loses the bid
        }
        const total = sideTake(rules, meld, hand.tricks[side], hand.took[side]);
        return total !== null && total >= hand.bid ? total : -hand.bid * rules.set_factor;
      }
      if (!played) {
        const rule = rules.forfeit_opponents;
        return rule ? (meld >= rule[0] ? meld : 0) + rule[1] : 0;
      }
      const total = sideTake(rules, meld, hand.tricks[side], hand.took[side]);
      return total === null ? 0 : total;
    });
  }

  return { scores: provisionalScores };
})();
