// Every page: the header's menu. On a phone the links fold behind one button; this file is
// loaded in the head so that the page is drawn folded from the start (without JavaScript the
// links simply show).
(function () {
  "use strict";
  document.documentElement.classList.add("js");
  document.addEventListener("DOMContentLoaded", function () {
    const toggle = document.querySelector("header.site .menu-toggle");
    const nav = document.getElementById("site-nav");
    if (!toggle || !nav) return;
    function open(yes) {
      nav.classList.toggle("open", yes);
      toggle.setAttribute("aria-expanded", yes ? "true" : "false");
    }
    toggle.addEventListener("click", function () {
      open(toggle.getAttribute("aria-expanded") !== "true");
    });
    document.addEventListener("keydown", function (event) {
      if (event.key === "Escape" && nav.classList.contains("open")) {
        open(false);
        toggle.focus();
      }
    });
    document.addEventListener("click", function (event) {
      if (nav.classList.contains("open") && !nav.contains(event.target) && event.target !== toggle) open(false);
    });
  });
})();
