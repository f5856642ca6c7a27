// The words this script shows, in the reader's language: the page gives them as data
// (templates/games/_page_words.html, games.web.presenters.page_words); English if it has none.
const pageWords = (function () {
  "use strict";
  const english = {
    units: {
      day: { one: "{count} day", other: "{count} days" },
      hour: { one: "{count} hour", other: "{count} hours" },
      minute: { one: "{count} minute", other: "{count} minutes" },
      second: { one: "{count} second", other: "{count} seconds" },
    },
    live: "Live: moves appear as they are made.",
    lost: "Connection lost: reconnecting… (the board will catch up by itself)",
    unreachable: "The server could not be reached: nothing was sent and the page is as it was. Try again when the connection is back.",
    databaseAway: "The site's database did not answer just now: nothing was changed. Try again in a few seconds.",
    serverError: "The server answered with an error ({code}): nothing changed on this page. Try again, or reload it.",
    yourTurn: "Your turn",
  };
  const given = document.getElementById("page-words");
  if (!given) return english;
  try {
    return Object.assign({}, english, JSON.parse(given.textContent));
  } catch (e) {
    return english;
  }
})();

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

  // The seq the log was drawn at: Basilica's "if scored now" box is drawn with it, whole or
  // pushed with the newest turns only.
  function logSeq() {
    const el = document.getElementById("preview");
    return el ? parseInt(el.dataset.seq, 10) : currentSeq();
  }
  let keepLog = false;
  document.body.addEventListener("htmx:oobBeforeSwap", function (event) {
    if (!keepLog) return;
    const id = (event.detail.target && event.detail.target.id) || "";
    if (id === "log-turns" || id.indexOf("turn-") === 0) event.detail.shouldSwap = false;
  });

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
    say(pageWords.live, "open");
    if (wasConnected) catchUp();
    wasConnected = true;
  });
  // The server's own close codes (games/live/consumers.py): it closed this socket on purpose,
  // so the page does not come back (htmx retries only a connection lost, 1006 or 1011-1013),
  // and says why, in the words the template gave it.
  const CLOSED_BY_SERVER = { 4008: "talked", 4029: "tooMany" };
  document.body.addEventListener("htmx:wsClose", function (event) {
    const why = CLOSED_BY_SERVER[event.detail.event ? event.detail.event.code : 0];
    if (why && status && status.dataset[why]) {
      say(status.dataset[why], "closed");
      return;
    }
    say(pageWords.lost, "closed");
  });
  document.body.addEventListener("htmx:wsError", function () {
    say(pageWords.lost, "closed");
  });
  document.body.addEventListener("htmx:wsBeforeMessage", function (event) {
    const text = event.detail.message;
    if (typeof text !== "string") return;
    if (text.charAt(0) !== "{") {
      // Partials: never let an older push overwrite a newer board.
      const match = /data-seq="(\d+)"/.exec(text);
      if (match && parseInt(match[1], 10) < currentSeq()) {
        event.preventDefault();
        return;
      }
      // A push that carries only the log's newest turns fits a log drawn at its base, the
      // action before (the log's own seq: a pick redraws the status, never the log). Pushed
      // again at the seq the log already shows (a takeback asked or declined), the rest of it
      // is swapped and the log kept; a log further behind has the whole region fetched.
      keepLog = false;
      const base = /data-log-base="(\d+)"/.exec(text);
      if (base && parseInt(base[1], 10) !== logSeq()) {
        if (match && parseInt(match[1], 10) === logSeq()) {
          keepLog = true;
        } else {
          event.preventDefault();
          catchUp();
        }
      }
      return;
    }
    // A JSON message is a notice, not HTML: presence, or a seq the page must reach.
    event.preventDefault();
    const notice = JSON.parse(text);
    if (notice.type === "presence") {
      const el = document.getElementById("presence");
      if (el) el.textContent = notice.text;
    } else if (notice.type === "seq" && notice.yours) {
      // A change this player made: the tab that made it swaps in its answer; any other tab of
      // theirs (or one whose answer was lost) is still behind a moment later, and catches up.
      setTimeout(function () {
        const seq = currentSeq();
        if (notice.seq > seq || (notice.seq === seq && notice.status !== currentStatus())) catchUp();
      }, 1500);
    } else if (notice.type === "seq" && (notice.seq !== currentSeq() || notice.status !== currentStatus())) {
      catchUp();
    }
  });
  // The player's own boxes outside the pushed region (their prepared replies) ask for
  // themselves again when the game has moved on: "game:moved".
  function movedOn(seq) {
    if (lastSeq >= 0 && seq > lastSeq) htmx.trigger(document.body, "game:moved");
  }
  document.body.addEventListener("htmx:wsAfterMessage", function () {
    keepLog = false;
    const seq = currentSeq();
    if (lastSeq >= 0 && seq > lastSeq + 1) catchUp();
    movedOn(seq);
    lastSeq = seq;
  });
  document.body.addEventListener("htmx:afterSwap", function () {
    const seq = currentSeq();
    movedOn(seq);
    lastSeq = seq;
  });

  // Clocks: the server sends each clock's seconds with every update; in between, the running
  // one counts down here, in the words the server's clocks use (each unit's plural forms,
  // chosen by the language's rules). At zero the page asks the server, which ends the game if
  // it agrees.
  const rules = window.Intl && Intl.PluralRules ? new Intl.PluralRules(document.documentElement.lang || "en") : null;
  function plural(n, unit) {
    const forms = pageWords.units[unit];
    const category = rules ? rules.select(n) : (n === 1 ? "one" : "other");
    return (forms[category] || forms.other).replace("{count}", String(n));
  }
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

// The game page at the keyboard: arrow keys move among the highlighted targets, Enter chooses
// (they are buttons and links), Escape takes back a half-made move; after a swap the focus comes
// back to the board instead of falling to the top of the page.
(function () {
  "use strict";
  const game = document.getElementById("game");
  if (!game) return;
  const TARGETS = "#play .cell.target, #play .tile.choosable, #play .prompt .choice";

  function targets() {
    return Array.from(document.querySelectorAll(TARGETS));
  }
  function centre(el) {
    const r = el.getBoundingClientRect();
    return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
  }
  // The nearest target in the arrow's direction, the straight line weighing more than the side.
  function next(from, key) {
    const a = centre(from);
    let best = null, bestScore = Infinity;
    targets().forEach(function (el) {
      if (el === from) return;
      const b = centre(el), dx = b.x - a.x, dy = b.y - a.y;
      const along = { ArrowRight: dx, ArrowLeft: -dx, ArrowDown: dy, ArrowUp: -dy }[key];
      const across = key === "ArrowLeft" || key === "ArrowRight" ? Math.abs(dy) : Math.abs(dx);
      if (along <= 1) return;
      const score = along + 2 * across;
      if (score < bestScore) { bestScore = score; best = el; }
    });
    return best;
  }
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.key === "Escape") {
      const back = document.querySelector("#play .start-over");
      if (back) { event.preventDefault(); back.click(); }
      return;
    }
    if (!/^Arrow/.test(event.key)) return;
    const log = document.querySelector("#log .turns");
    if (log && log.contains(document.activeElement) && /^Arrow(Up|Down)$/.test(event.key)) {
      // The log is one stop of the Tab order; the arrows go through its entries.
      const entries = Array.from(log.querySelectorAll("li[data-cells]"));
      const at = entries.indexOf(document.activeElement);
      const to = entries[event.key === "ArrowDown" ? at + 1 : Math.max(at - 1, 0)];
      if (to) { event.preventDefault(); to.focus(); }
      return;
    }
    const all = targets();
    if (!all.length) return;
    const here = document.activeElement;
    if (here && /^(INPUT|TEXTAREA|SELECT)$/.test(here.tagName)) return;
    event.preventDefault();
    const to = all.indexOf(here) >= 0 ? next(here, event.key) : all[0];
    if (to) to.focus();
  });

  // While the player works in the game, the focus stays there: a click's answer or a push
  // replaces the focused element, and the focus then comes back to the same target, the first
  // target, or the board, instead of falling to the top of the page.
  let engaged = false, last = {};
  document.addEventListener("focusin", function (event) {
    engaged = game.contains(event.target);
    if (engaged) last = { cell: event.target.dataset.cell, tile: event.target.dataset.tile };
  });
  document.addEventListener("focusout", function (event) {
    // A real blur (the element is still there) ends the engagement; a swap that removed the
    // focused element does not.
    const left = event.target;
    setTimeout(function () {
      if (document.contains(left)) {
        const now = document.activeElement;
        engaged = !!now && now !== document.body && game.contains(now);
      }
    }, 0);
  });
  function restore() {
    const here = document.activeElement;
    if (!engaged || (here && here !== document.body && document.contains(here))) return;
    const same = (last.cell && document.querySelector('#play [data-cell="' + last.cell + '"].target'))
      || (last.tile && document.querySelector('#play [data-tile="' + last.tile + '"].choosable'));
    const fallback = document.querySelector("#board .cathedral");
    const to = same || targets()[0] || fallback;
    if (!to) return;
    if (to === fallback) to.setAttribute("tabindex", "-1");
    to.focus({ preventScroll: true });
  }
  document.body.addEventListener("htmx:afterSwap", restore);
  document.body.addEventListener("htmx:wsAfterMessage", restore);

  // A log entry names cells: pointing at it (or focusing it) lights them on the board.
  function light(entry, on) {
    const cells = (entry.dataset.cells || "").split(" ").filter(Boolean);
    cells.forEach(function (key) {
      const cell = document.querySelector('#board [data-cell="' + key + '"]');
      if (cell) cell.classList.toggle("hovered", on);
    });
  }
  ["mouseover", "focusin"].forEach(function (type) {
    document.addEventListener(type, function (event) {
      const entry = event.target.closest && event.target.closest("[data-cells]");
      if (entry) light(entry, true);
    });
  });
  ["mouseout", "focusout"].forEach(function (type) {
    document.addEventListener(type, function (event) {
      const entry = event.target.closest && event.target.closest("[data-cells]");
      if (entry) light(entry, false);
    });
  });

  // A click that cannot reach the server says so; htmx leaves the page as it was.
  const trouble = document.getElementById("net-error");
  function warn(text) {
    if (!trouble) return;
    trouble.textContent = text;
    trouble.hidden = false;
  }
  document.body.addEventListener("htmx:sendError", function () {
    warn(pageWords.unreachable);
  });
  document.body.addEventListener("htmx:responseError", function (event) {
    const code = event.detail.xhr ? event.detail.xhr.status : 0;
    if (code === 503) {
      warn(pageWords.databaseAway);
      return;
    }
    warn(pageWords.serverError.replace("{code}", String(code)));
  });
  document.body.addEventListener("htmx:afterRequest", function (event) {
    if (trouble && event.detail.successful) trouble.hidden = true;
  });

  // When the opponent's move makes it your turn: a short sound, if you asked for one.
  let wasYours = (document.getElementById("status") || {}).dataset.yours === "1";
  function chime() {
    const Audio = window.AudioContext || window.webkitAudioContext;
    if (!Audio) return;
    const ctx = new Audio(), tone = ctx.createOscillator(), gain = ctx.createGain();
    tone.frequency.value = 660;
    gain.gain.setValueAtTime(0.15, ctx.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, ctx.currentTime + 0.4);
    tone.connect(gain).connect(ctx.destination);
    tone.start();
    tone.stop(ctx.currentTime + 0.4);
  }
  document.body.addEventListener("htmx:wsAfterMessage", function () {
    const yours = (document.getElementById("status") || {}).dataset.yours === "1";
    if (yours && !wasYours && game.dataset.sound === "1") {
      try { chime(); } catch (e) { /* a browser that will not play before a click */ }
    }
    wasYours = yours;
  });
  document.body.addEventListener("htmx:afterSettle", function () {
    wasYours = (document.getElementById("status") || {}).dataset.yours === "1";
  });
})();

// Motion: what a move changed arrives on the board (and in the market) as the move comes in,
// the player's own and the opponent's pushed, but not again at each tap that only picks; after
// a scoring, the areas it scored light up once its breakdown is closed. The CSS animates only
// for a player whose system does not ask for reduced motion.
(function () {
  "use strict";
  const game = document.getElementById("game");
  if (!game) return;
  function seqNow() {
    const el = document.getElementById("status");
    return el ? parseInt(el.dataset.seq, 10) : -1;
  }
  let shown = seqNow();
  function arrive() {
    const seq = seqNow();
    if (seq > shown) {
      document.querySelectorAll("#board .changed, #market .changed, #hands .changed").forEach(function (el) {
        el.classList.add("arriving");
      });
    }
    shown = Math.max(shown, seq);
  }
  document.body.addEventListener("htmx:afterSettle", arrive);
  document.body.addEventListener("htmx:wsAfterMessage", arrive);

  const overlay = document.getElementById("scoring-overlay");
  if (!overlay) return;
  overlay.addEventListener("close", function () {
    const cells = [];
    overlay.querySelectorAll("[data-cells]").forEach(function (row) {
      row.dataset.cells.split(" ").filter(Boolean).forEach(function (key) { cells.push(key); });
    });
    cells.forEach(function (key) {
      const cell = document.querySelector('#board [data-cell="' + key + '"]');
      if (!cell) return;
      cell.classList.remove("scored");
      void cell.offsetWidth;  // start the animation again
      cell.classList.add("scored");
      setTimeout(function () { cell.classList.remove("scored"); }, 2600);
    });
  });
})();

// The scoring moment: a scoring the viewer has not seen yet opens in an overlay, once per
// browser; each scoring's line in the log opens it again. Without JavaScript the same
// breakdown unfolds in the log.
(function () {
  "use strict";
  const game = document.getElementById("game");
  const overlay = document.getElementById("scoring-overlay");
  if (!game || !overlay || typeof overlay.showModal !== "function") return;
  const key = "basilica:scoring-shown:" + game.dataset.game;

  function show(number) {
    const source = document.querySelector('#scoring-' + number + ' .breakdown');
    if (!source) return;
    const body = overlay.querySelector(".overlay-body");
    body.replaceChildren(source.cloneNode(true));
    const title = body.querySelector(".breakdown-title");
    if (title) title.id = "scoring-overlay-title";
    if (!overlay.open) overlay.showModal();
    overlay.querySelector(".close").focus();
  }
  function newest() {
    const all = Array.from(document.querySelectorAll(".scoring-details[data-scoring]"));
    return all.reduce(function (n, el) { return Math.max(n, parseInt(el.dataset.scoring, 10)); }, 0);
  }
  function announce() {
    const n = newest();
    let seen = 0;
    try { seen = parseInt(localStorage.getItem(key) || "0", 10); } catch (e) { /* private mode */ }
    if (n > seen) {
      try { localStorage.setItem(key, String(n)); } catch (e) { /* private mode */ }
      show(n);
    }
  }
  document.addEventListener("click", function (event) {
    const link = event.target.closest && event.target.closest(".show-scoring");
    if (!link) return;
    event.preventDefault();
    show(link.dataset.scoring);
  });
  overlay.addEventListener("click", function (event) {
    if (event.target === overlay) overlay.close();  // a click on the backdrop
  });
  // On the swap itself (not its settling): whatever shows the new position shows the overlay.
  document.body.addEventListener("htmx:afterSwap", announce);
  document.body.addEventListener("htmx:wsAfterMessage", announce);
  announce();
})();

// A box the player opened in the live region (Basilica's "if scored now", a scoring's
// breakdown) stays open when a move redraws the region, theirs or one pushed to them: the open
// ones are noted before the swap, by id, and opened again in the new drawing. One they closed
// stays closed. (The symbols' box is never redrawn: hx-preserve.)
(function () {
  "use strict";
  if (!document.getElementById("game")) return;
  let open = [];
  function note() {
    open = Array.from(document.querySelectorAll("#live details[id][open]:not([hx-preserve])"))
      .map(function (el) { return el.id; });
  }
  function reopen() {
    open.forEach(function (id) {
      const el = document.getElementById(id);
      if (el && el.tagName === "DETAILS") el.open = true;
    });
    open = [];
  }
  document.body.addEventListener("htmx:beforeSwap", note);
  document.body.addEventListener("htmx:wsBeforeMessage", note);
  document.body.addEventListener("htmx:afterSwap", reopen);
  document.body.addEventListener("htmx:wsAfterMessage", reopen);
})();

// Every page: the tab title carries the count of games waiting for you, kept fresh by pushes.
(function () {
  "use strict";
  const yourTurn = pageWords.yourTurn + " · ";
  function retitle() {
    const turns = document.getElementById("turns");
    const count = turns ? parseInt(turns.dataset.count || "0", 10) : 0;
    const status = document.getElementById("status");
    const yours = status && status.dataset.yours === "1";
    let bare = document.title.replace(/^\(\d+\) /, "");
    if (bare.indexOf(yourTurn) === 0) bare = bare.slice(yourTurn.length);
    document.title = (count > 0 ? "(" + count + ") " : "") + (yours ? yourTurn : "") + bare;
  }
  document.body.addEventListener("htmx:afterSettle", retitle);
  document.body.addEventListener("htmx:wsAfterMessage", retitle);
})();
