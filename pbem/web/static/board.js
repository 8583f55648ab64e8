// Niceties over the page's forms, which work without this script: a place with moves is
// highlighted on the board and clicking it plays its move (or, with several, shows them);
// arrow keys step the replay.
(function () {
  "use strict";
  function init() {
    document.querySelectorAll("[data-place-moves]").forEach(function (group) {
      var place = group.getAttribute("data-place-moves");
      var shape = document.querySelector('svg.board [data-place="' + place + '"]');
      if (!shape) return;
      var buttons = group.querySelectorAll("button");
      shape.classList.add("playable");
      shape.setAttribute("tabindex", "0");
      shape.setAttribute("role", "button");
      function choose() {
        if (buttons.length === 1) {
          buttons[0].click();
          return;
        }
        document.querySelectorAll(".place-moves.chosen").forEach(function (g) {
          g.classList.remove("chosen");
        });
        group.classList.add("chosen");
        group.scrollIntoView({ block: "nearest" });
        buttons[0].focus();
      }
      shape.addEventListener("click", choose);
      shape.addEventListener("keydown", function (event) {
        if (event.key === "Enter" || event.key === " ") {
          event.preventDefault();
          choose();
        }
      });
    });
    var keys = { ArrowLeft: "previous-move", ArrowRight: "next-move", Home: "start", End: "now",
                 PageUp: "previous-round", PageDown: "next-round" };
    document.addEventListener("keydown", function (event) {
      var target = event.target;
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      if (target && /^(INPUT|TEXTAREA|SELECT|BUTTON)$/.test(target.tagName)) return;
      var step = keys[event.key] && document.querySelector('a.step[data-step="' + keys[event.key] + '"]');
      if (step) {
        event.preventDefault();
        window.location.href = step.href;
      }
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
