// Drag and drop with a mouse: press on a tile that may be chosen (a vault or an order in
// Basilica's market, a building in Cathedral's hand), drag it over the board and let go on a
// cell. It does what two clicks do, through the same links: the press, once the pointer has
// moved, picks the tile (the server answers with the cells it may go to, highlighted as after a
// click), and the release clicks the cell under the pointer. A plain click stays a click, and a
// phone keeps tap-tap: only a mouse drags.
(function () {
  "use strict";
  const game = document.getElementById("game");
  if (!game) return;
  const SOURCES = "#market .tile.choosable, #hands .piece.choosable";
  const CELLS = "#board [data-cell]";
  let drag = null;

  function avatarOf(source) {
    const avatar = source.cloneNode(true);
    avatar.removeAttribute("id");
    avatar.removeAttribute("href");
    avatar.removeAttribute("hx-get");
    avatar.setAttribute("aria-hidden", "true");
    avatar.classList.remove("choosable", "picked");
    avatar.classList.add("drag-avatar");
    document.body.appendChild(avatar);
    return avatar;
  }
  function follow(event) {
    const box = drag.avatar.getBoundingClientRect();
    drag.avatar.style.left = event.clientX - box.width / 2 + "px";
    drag.avatar.style.top = event.clientY - box.height / 2 + "px";
  }
  function cellUnder(x, y) {
    const under = document.elementFromPoint(x, y);
    return under && under.closest ? under.closest(CELLS) : null;
  }
  // The release lands while the pick may still be on its way: the cell is clicked once the
  // page shows the targets of the tile picked.
  function dropOn(key) {
    function click() {
      const cell = document.querySelector('#board [data-cell="' + key + '"].target')
        || document.querySelector('#board .city [data-cell="' + key + '"]');
      if (cell) cell.click();
    }
    if (document.querySelector("#play.htmx-request, #play .htmx-request")) {
      document.body.addEventListener("htmx:afterSettle", click, { once: true });
    } else {
      click();
    }
  }

  document.addEventListener("dragstart", function (event) {
    // A link would start the browser's own drag of its address.
    if (event.target.closest && event.target.closest(SOURCES)) event.preventDefault();
  });
  document.addEventListener("pointerdown", function (event) {
    if (event.pointerType !== "mouse" || event.button !== 0) return;
    const source = event.target.closest && event.target.closest(SOURCES);
    if (source) drag = { x: event.clientX, y: event.clientY, source: source, avatar: null };
  });
  document.addEventListener("pointermove", function (event) {
    if (!drag) return;
    if (!drag.avatar) {
      if (Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < 8) return;
      drag.avatar = avatarOf(drag.source);
      game.classList.add("dragging");
      if (!drag.source.classList.contains("picked")) drag.source.click();
    }
    follow(event);
    document.querySelectorAll("#board .drop-here").forEach(function (el) { el.classList.remove("drop-here"); });
    const cell = cellUnder(event.clientX, event.clientY);
    if (cell && (cell.classList.contains("target") || cell.closest(".city"))) cell.classList.add("drop-here");
  });
  // The click the browser sends after a drag (on what the press and the release share) is not
  // a choice of its own; the drop's own click comes after it.
  let swallow = false;
  document.addEventListener("pointerup", function (event) {
    if (!drag) return;
    const was = drag;
    drag = null;
    if (!was.avatar) return;  // a click, which the browser sends by itself
    was.avatar.remove();
    document.querySelectorAll("#board .drop-here").forEach(function (el) { el.classList.remove("drop-here"); });
    const cell = cellUnder(event.clientX, event.clientY);
    swallow = true;
    setTimeout(function () {
      swallow = false;
      game.classList.remove("dragging");
      if (cell) dropOn(cell.dataset.cell);
    }, 0);
  });
  document.addEventListener("click", function (event) {
    if (!swallow) return;
    event.preventDefault();
    event.stopPropagation();
  }, true);
})();
