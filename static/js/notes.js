// The notes box on a game page (templates/games/_notes.html): htmx saves it as its writer types.
// A save the site refuses for coming too often (429) is said in the box's status like any other
// answer; a save that never arrived, or met an error page, says so there too. The text stays in
// the box either way, never lost without a word.
(function () {
  "use strict";
  function fromNotes(event) {
    const form = event.detail && event.detail.elt && event.detail.elt.closest(".notes-form");
    return form || null;
  }
  function say(text) {
    const status = document.getElementById("notes-status");
    if (!status) return;
    const line = document.createElement("span");
    line.className = "error";
    line.textContent = text;
    status.replaceChildren(line);
  }
  // The box's own answers (saved, too long, too often) are swapped in; any other page the
  // server answers with (a refused token's 403, a server error) is an error said in words.
  const ANSWERS = [200, 400, 429];
  document.addEventListener("htmx:beforeSwap", function (event) {
    if (!fromNotes(event)) return;
    const answered = ANSWERS.indexOf(event.detail.xhr.status) !== -1;
    event.detail.shouldSwap = answered;
    event.detail.isError = !answered;
  });
  document.addEventListener("htmx:sendError", function (event) {
    const form = fromNotes(event);
    if (form) say(form.dataset.unreachable);
  });
  document.addEventListener("htmx:responseError", function (event) {
    const form = fromNotes(event);
    if (form) say(form.dataset.failed);
  });
})();
