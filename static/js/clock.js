// Pinochle Table: a club round's clock. The server draws the time left; this counts it down each
// second from the bell's time (data-ends-at) so a phone left open stays right. No inline code: the
// CSP allows scripts from this site only.
(function () {
  "use strict";

  function words(seconds) {
    if (seconds <= 0) {
      return "Time is up";
    }
    const minutes = Math.floor(seconds / 60);
    const rest = seconds % 60;
    return minutes + ":" + (rest < 10 ? "0" : "") + rest + " left";
  }

  function tick() {
    document.querySelectorAll("[data-ends-at]").forEach(function (clock) {
      const ends = Date.parse(clock.getAttribute("data-ends-at"));
      if (Number.isNaN(ends)) {
        return;
      }
      const left = Math.max(0, Math.round((ends - Date.now()) / 1000));
      const text = words(left);
      if (clock.textContent !== text) {
        clock.textContent = text;
      }
      const line = clock.closest(".round-clock");
      if (line && left <= 0) {
        line.classList.add("over");
      }
    });
  }

  if (!window.pinochleClock) {  // the script may be included twice (a swapped partial)
    window.pinochleClock = window.setInterval(tick, 1000);
  }
})();
