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

  function currentStatus() {
    const el = document.getElementById("status");
    return el ? el.dataset.status : "";
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
    } else if (notice.type === "seq" && (notice.seq !== currentSeq() || notice.status !== currentStatus())) {
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

  // Clocks: the server sends each clock's seconds with every update; in between, the running
  // one counts down here. At zero the page asks the server, which ends the game if it agrees.
  function plural(n, unit) { return n + " " + unit + (n === 1 ? "" : "s"); }
  function inWords(s) {
    const days = Math.floor(s / 86400), hours = Math.floor((s % 86400) / 3600);
    const minutes = Math.floor((s % 3600) / 60);
    if (days) return plural(days, "day") + (hours ? " " + plural(hours, "hour") : "");
    if (hours) return plural(hours, "hour") + (minutes ? " " + plural(minutes, "minute") : "");
    if (minutes) return plural(minutes, "minute");
    return plural(s, "second");
  }
  function inDigits(s) {
    const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
    const mm = h ? String(m).padStart(2, "0") : String(m);
    return (h ? h + ":" : "") + mm + ":" + String(sec).padStart(2, "0");
  }
  let askedAt = 0;
  function tick() {
    const now = Date.now();
    document.querySelectorAll('.clock[data-running="1"]').forEach(function (el) {
      if (!el.dataset.t0) el.dataset.t0 = String(now);
      const live = el.dataset.live === "1";
      const left = Math.max(0, Math.floor(parseInt(el.dataset.seconds, 10) - (now - parseInt(el.dataset.t0, 10)) / 1000));
      const time = el.querySelector(".clock-time");
      if (time) time.textContent = live ? inDigits(left) : inWords(left);
      el.classList.toggle("low", live ? left < 30 : left < 3600);
      if (left === 0 && now - askedAt > 5000) {
        askedAt = now;
        setTimeout(catchUp, 1000);  // the server's own check may land first
      }
    });
  }
  setInterval(tick, 1000);
})();

// Every page: the tab title carries the count of games waiting for you, kept fresh by pushes.
(function () {
  "use strict";
  function retitle() {
    const turns = document.getElementById("turns");
    if (!turns) return;
    const count = parseInt(turns.dataset.count || "0", 10);
    const bare = document.title.replace(/^\(\d+\) /, "");
    document.title = (count > 0 ? "(" + count + ") " : "") + bare;
  }
  document.body.addEventListener("htmx:afterSettle", retitle);
  document.body.addEventListener("htmx:wsAfterMessage", retitle);
})();
