// Pages that follow the site without asking on a timer: the lobby's open seeks, the games being
// played now, a game waiting for its opponent (games/live/lobby.py, games/live/consumers.py).
// An element with a socket (hx-ext="ws") names in `data-follows` the element that shows the list.
// A notice says only that something changed; that element then asks the view for itself once
// (hx-trigger="lobby:changed"), so each viewer's own rendering stays the server's. A socket that
// opens (at first, or back after a lost connection) is told by the server whether the page
// missed a change. Without JavaScript the page still works: a reload shows the news.
(function () {
  "use strict";
  const QUIET = 1000; // ms: a list asks at most once a second; the last notice of a burst is kept
  const TOO_MANY = 4029; // the server's close when its owner holds too many (consumers.py)

  // A form was sent: the page is on its way elsewhere, and no answer may send it somewhere else
  // (the player who cancels their seek goes to the lobby, not to the page of the game cancelled).
  let leaving = false;
  document.addEventListener("submit", function (event) {
    if (!event.defaultPrevented) leaving = true;
  });

  function asker(socketElement) {
    let askedAt = 0;
    let timer = null;
    return function ask() {
      if (timer !== null) return; // one ask is already due: it will show this change too
      const wait = Math.max(0, askedAt + QUIET - Date.now());
      timer = setTimeout(function () {
        timer = null;
        if (leaving) return;
        askedAt = Date.now();
        // Looked up each time: the list's answer replaces the element.
        const list = document.querySelector(socketElement.dataset.follows);
        if (list) htmx.trigger(list, "lobby:changed");
      }, wait);
    };
  }

  function asks(notice, socketElement) {
    if (notice.type === "changed") return true;
    // A waiting page's game socket tells the game's status, at once and at each change.
    const waitingFor = socketElement.dataset.status;
    return notice.type === "seq" && Boolean(waitingFor) && notice.status !== waitingFor;
  }

  document.querySelectorAll("[data-follows]").forEach(function (socketElement) {
    const ask = asker(socketElement);
    const note = socketElement.querySelector(".live-note");
    function say(text) {
      if (!note) return;
      note.textContent = text || "";
      note.hidden = !text;
    }
    socketElement.addEventListener("htmx:wsBeforeMessage", function (event) {
      event.preventDefault(); // a notice, never HTML to swap in
      let notice;
      try {
        notice = JSON.parse(event.detail.message);
      } catch (error) {
        return;
      }
      if (asks(notice, socketElement)) ask();
    });
    socketElement.addEventListener("htmx:wsOpen", function () {
      say("");
    });
    socketElement.addEventListener("htmx:wsClose", function (event) {
      if (leaving || !note) return;
      const code = event.detail.event ? event.detail.event.code : 0;
      if (code === 1000 || code === 1001) return; // closed on purpose, or the page is going away
      say(code === TOO_MANY ? note.dataset.tooMany : note.dataset.lost);
    });
  });
})();
