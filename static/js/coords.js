// Coordinates on request: the checkbox shows them (CSS); this remembers it across redraws.
(function () {
  "use strict";
  function apply() {
    let on = false;
    try { on = localStorage.getItem("coordinates") === "1"; } catch (e) { /* private mode */ }
    document.querySelectorAll(".coords-switch").forEach(function (box) { box.checked = on; });
  }
  document.addEventListener("change", function (event) {
    if (!event.target.matches(".coords-switch")) return;
    try { localStorage.setItem("coordinates", event.target.checked ? "1" : "0"); } catch (e) { /* private */ }
    apply();
  });
  document.addEventListener("htmx:load", apply);
  apply();
})();
