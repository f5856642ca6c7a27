// A hint (templates/games/_hint_answer.html) marks on the page the cells and tiles of the move
// it names. A move, a push or a pick redraws the prompt, and the hint with it: the marks go.
(() => {
  "use strict";

  function clear() {
    document.querySelectorAll(".hinted").forEach((el) => el.classList.remove("hinted"));
  }

  function mark(scope, attribute, keys) {
    for (const key of (keys || "").split(" ").filter(Boolean)) {
      const selector = `${scope} [${attribute}="${CSS.escape(key)}"]`;
      document.querySelectorAll(selector).forEach((el) => el.classList.add("hinted"));
    }
  }

  document.body.addEventListener("htmx:afterSwap", () => {
    clear();
    const hint = document.getElementById("computer-hint");
    if (!hint) return;
    mark("#board", "data-cell", hint.dataset.cells);
    mark("#market, #hands", "data-tile", hint.dataset.tiles);
  });
})();
