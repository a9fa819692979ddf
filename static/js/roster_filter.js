// Check-in: "Find a member" narrows the roster's tick boxes as the director types, so a member is
// found among 150 at once. Ticked members always stay in sight (a team's first pick is not lost
// while the second is found); nothing is sent until "Check in". Without JavaScript the box is a
// plain search form: the page comes back with the roster narrowed on the server.
(function () {
  "use strict";

  function plain(text) {
    return text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase().trim();
  }

  function narrow(box) {
    const list = document.getElementById(box.getAttribute("data-roster-filter"));
    if (!list) {
      return;
    }
    const wanted = plain(box.value);
    let shown = 0;
    list.querySelectorAll("label").forEach(function (label) {
      const input = label.querySelector("input");
      const row = label.parentElement === list ? label : label.parentElement;
      const keep = wanted === "" || (input && input.checked) || plain(label.textContent).indexOf(wanted) >= 0;
      row.hidden = !keep;
      shown += keep ? 1 : 0;
    });
    const none = list.parentElement.querySelector(".roster-none");
    if (none) {
      none.hidden = shown > 0;
    }
  }

  document.addEventListener("input", function (event) {
    const box = event.target;
    if (box instanceof HTMLInputElement && box.hasAttribute("data-roster-filter")) {
      narrow(box);
    }
  });

  // Enter in the box narrows (it already has): it does not reload the page and lose the ticks.
  document.addEventListener("submit", function (event) {
    const box = event.target instanceof HTMLFormElement && event.target.querySelector("[data-roster-filter]");
    if (box && document.getElementById(box.getAttribute("data-roster-filter"))) {
      event.preventDefault();
      narrow(box);
    }
  });
})();
