// Every page: the header's menu. On a phone the links fold behind one button; this file is
// loaded in the head so that the page is drawn folded from the start (without JavaScript the
// links simply show).
(function () {
  "use strict";
  document.documentElement.classList.add("js");
  // The browser's time zone, for the times on the next pages of a visitor (a player's account
  // keeps its own, chosen in Settings; a sign-up form fills it in from the same guess).
  let zone = "";
  try { zone = Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (error) { zone = ""; }
  if (zone && document.cookie.indexOf("tz=" + zone) === -1) {
    document.cookie = "tz=" + zone + "; path=/; max-age=31536000; samesite=lax";
  }
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("input[data-time-zone]").forEach(function (input) {
      if (!input.value) input.value = zone;
    });
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
