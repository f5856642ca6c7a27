// The game page's live link: show the socket's state, and never let the board go stale.
// Pushes arrive as htmx-ws out-of-band swaps carrying the seq; a gap or a reconnect fetches
// the current partials over plain HTTP.
(function () {
  "use strict";
  const game = document.getElementById("game");
  if (!game) return;
  const status = document.getElementById("connection");
  const url = game.dataset.partialsUrl;

  function currentSeq() {
    const el = document.getElementById("status");
    return el ? parseInt(el.dataset.seq, 10) : -1;
  }

  function say(text, state) {
    if (!status) return;
    status.textContent = text;
    status.dataset.state = state;
  }

  function catchUp() {
    // Fetch the whole live region afresh; htmx swaps it in like a click would.
    htmx.ajax("GET", url, { target: "#live", swap: "outerHTML", headers: { "X-Catch-Up": "1" } });
  }

  let lastSeq = currentSeq();
  let wasConnected = false;

  document.body.addEventListener("htmx:wsOpen", function () {
    say("Live: moves appear as they are made.", "open");
    if (wasConnected) catchUp();
    wasConnected = true;
  });
  document.body.addEventListener("htmx:wsClose", function () {
    say("Connection lost: reconnecting… (the board will catch up by itself)", "closed");
  });
  document.body.addEventListener("htmx:wsError", function () {
    say("Connection lost: reconnecting… (the board will catch up by itself)", "closed");
  });
  document.body.addEventListener("htmx:wsBeforeMessage", function (event) {
    const text = event.detail.message;
    if (typeof text !== "string") return;
    if (text.charAt(0) !== "{") {
      // Partials: never let an older push overwrite a newer board.
      const match = /data-seq="(\d+)"/.exec(text);
      if (match && parseInt(match[1], 10) < currentSeq()) event.preventDefault();
      return;
    }
    // A JSON message is a notice, not HTML: presence, or a seq the page must reach.
    event.preventDefault();
    const notice = JSON.parse(text);
    if (notice.type === "presence") {
      const el = document.getElementById("presence");
      if (el) el.textContent = notice.text;
    } else if (notice.type === "seq" && notice.seq !== currentSeq()) {
      catchUp();
    }
  });
  document.body.addEventListener("htmx:wsAfterMessage", function () {
    const seq = currentSeq();
    if (lastSeq >= 0 && seq > lastSeq + 1) catchUp();
    lastSeq = seq;
  });
  document.body.addEventListener("htmx:afterSwap", function () {
    lastSeq = currentSeq();
  });
})();
