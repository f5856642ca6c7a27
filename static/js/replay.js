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
  document.body.addEventListener("htmx:afterSwap", function () {
    loading = false;
    if (wanted !== null && wanted !== shown()) fetchStep(wanted);
    else wanted = null;
    const current = document.querySelector("#replay .steps .current");
    if (current) current.scrollIntoView({ block: "nearest" });
  });
  window.addEventListener("popstate", function () { window.location.reload(); });
})();
