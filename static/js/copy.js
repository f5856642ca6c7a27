// "Copy link" buttons: copy the link of the read-only field they name, and say so. The buttons
// start hidden, so a page without JavaScript shows only the field, to select and copy by hand;
// a click or focus in the field selects the whole link.
(function () {
  "use strict";

  function selectAll(input) {
    input.focus();
    input.select();
    input.setSelectionRange(0, input.value.length);
  }

  function copyByHand(input) {
    // Older browsers, or a page not served over HTTPS: the Clipboard API is not there.
    selectAll(input);
    try {
      return document.execCommand("copy");
    } catch (error) {
      return false;
    }
  }

  // What it did, in the words the button carries (templates/games/_copy_link.html).
  function copy(input, status, words) {
    function say(text) {
      if (status) status.textContent = text;
    }
    function done() {
      say(words.copiedWords || "Link copied.");
    }
    function fallBack() {
      if (copyByHand(input)) done();
      else say(words.byHandWords || "Press Ctrl+C (⌘C on a Mac) to copy the selected link.");
    }
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(input.value).then(done, fallBack);
    } else {
      fallBack();
    }
  }

  document.querySelectorAll("input[data-select-all]").forEach(function (input) {
    input.addEventListener("focus", function () { input.select(); });
    input.addEventListener("click", function () { selectAll(input); });
  });

  document.querySelectorAll("button[data-copy-target]").forEach(function (button) {
    const input = document.getElementById(button.dataset.copyTarget);
    if (!input) return;
    const status = document.getElementById(button.dataset.copyStatus);
    button.hidden = false;
    button.addEventListener("click", function () { copy(input, status, button.dataset); });
  });
})();
