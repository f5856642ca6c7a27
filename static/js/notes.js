// The notes box on a game page (templates/games/_notes.html): htmx saves it as its writer types.
// A save the site refuses for coming too often (429) is said in the box's status like any other
// answer, and a save that never arrived says so there too: the text stays in the box, never lost
// without a word.
(function () {
  "use strict";
  function fromNotes(event) {
    const form = event.detail && event.detail.elt && event.detail.elt.closest(".notes-form");
    return form || null;
  }
  function say(form, text) {
    const status = document.getElementById("notes-status");
    if (!status) return;
    const line = document.createElement("span");
    line.className = "error";
    line.textContent = text;
    status.replaceChildren(line);
  }
  document.addEventListener("htmx:beforeSwap", function (event) {
    if (fromNotes(event) && event.detail.xhr.status === 429) {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
    }
  });
  document.addEventListener("htmx:sendError", function (event) {
    const form = fromNotes(event);
    if (form) say(form, form.dataset.unreachable);
  });
  document.addEventListener("htmx:responseError", function (event) {
    const form = fromNotes(event);
    if (form) say(form, form.dataset.failed);
  });
})();
