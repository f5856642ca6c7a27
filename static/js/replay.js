// The replay at the keyboard: the left and right arrows step back and forth, Home and End go to
// the start and the last step; the current step of the list stays in view.
(function () {
  "use strict";
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const here = document.activeElement;
    if (here && /^(INPUT|TEXTAREA|SELECT)$/.test(here.tagName)) return;
    const link = document.querySelector('#replay .replay-controls [data-key="' + event.key + '"]');
    if (!link) return;
    event.preventDefault();
    link.click();
  });
  function showCurrent() {
    const current = document.querySelector("#replay .steps .current");
    if (current) current.scrollIntoView({ block: "nearest" });
  }
  document.body.addEventListener("htmx:afterSwap", showCurrent);
  showCurrent();
})();
