// The replay at the keyboard: the left and right arrows step back and forth, Home and End go to
// the start and the last step. Keys pressed faster than the server answers add up: the page asks
// for the step they lead to once the step on its way has arrived, and the address follows.
(function () {
  "use strict";
  const KEYS = { ArrowLeft: -1, ArrowRight: 1 };
  let wanted = null;  // the step the keys lead to
  let loading = false;

  function region() { return document.getElementById("replay"); }
  function shown() { return parseInt(region().dataset.step, 10); }
  function last() { return parseInt(region().dataset.last, 10); }
  function fetchStep(step) {
    loading = true;
    const url = region().dataset.url + "?step=" + step;
    history.pushState({}, "", url);
    htmx.ajax("GET", url, { target: "#replay", swap: "outerHTML" });
  }
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey || !region()) return;
    const here = document.activeElement;
    if (here && /^(INPUT|TEXTAREA|SELECT)$/.test(here.tagName)) return;
    const from = wanted === null ? shown() : wanted;
    let to;
    if (event.key in KEYS) to = from + KEYS[event.key];
    else if (event.key === "Home") to = 0;
    else if (event.key === "End") to = last();
    else return;
    event.preventDefault();
    wanted = Math.max(0, Math.min(to, last()));
    if (!loading) fetchStep(wanted);
  });
  // The list of steps scrolls inside its own box to show the current step; the window stays
  // where it is (scrollIntoView would move it too, taking the board and the buttons away).
  function showCurrentStep() {
    const list = document.querySelector("#replay .steps");
    const current = list && list.querySelector(".current");
    if (!current) return;
    const box = list.getBoundingClientRect();
    const item = current.getBoundingClientRect();
    if (item.top < box.top) list.scrollTop += item.top - box.top;
    else if (item.bottom > box.bottom) list.scrollTop += item.bottom - box.bottom;
  }
  // A button pressed is replaced by the swap: its successor gets the focus, without scrolling.
  let focusedKey = null;
  document.body.addEventListener("htmx:beforeSwap", function () {
    const here = document.activeElement;
    focusedKey = here && here.closest("#replay") ? here.dataset.key || null : null;
  });
  document.body.addEventListener("htmx:afterSwap", function () {
    loading = false;
    if (wanted !== null && wanted !== shown()) fetchStep(wanted);
    else wanted = null;
    showCurrentStep();
    const button = focusedKey && document.querySelector(`#replay [data-key="${focusedKey}"]`);
    if (button) button.focus({ preventScroll: true });
  });
  window.addEventListener("popstate", function () { window.location.reload(); });
})();
