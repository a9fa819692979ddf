// Practice table: "Pass these N cards" stays disabled until exactly N cards are ticked.
// Without JavaScript the button is always there and the server refuses a wrong count in words.
(function () {
  "use strict";

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

  function setUp(root) {
    root.querySelectorAll("form.pass-form").forEach(update);
  }

  document.addEventListener("change", function (event) {
    const form = event.target instanceof Element ? event.target.closest("form.pass-form") : null;
    if (form) {
      update(form);
    }
  });
  document.addEventListener("DOMContentLoaded", function () { setUp(document); });
  document.addEventListener("htmx:afterSwap", function () { setUp(document); });
})();
