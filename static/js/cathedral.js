// Cathedral's board, with a mouse or a keyboard: once a building is chosen, its ghost follows
// the pointer (or the focused cell) over the cells where its centre square may go in the
// current orientation; R, the mouse wheel or the "Turn it" button turns it; a click or Enter
// places it (or, for a player who confirms each move, shows it placed with "Place it here").
// A tap on a phone keeps the links' own way: the server shows the building on the tapped cell
// with its orientations to choose from.
(function () {
  "use strict";
  const COLUMNS = "ABCDEFGHIJ";
  let turnIndex = 0;
  let lastCell = null;
  let touching = false;

  function city() { return document.querySelector("#board .city"); }
  function ghost() {
    const board = city();
    if (!board || !board.dataset.ghost) return null;
    try { return JSON.parse(board.dataset.ghost); } catch (e) { return null; }
  }
  function turns(data) { return Object.keys(data.turns).sort(); }
  function current(data) {
    const all = turns(data);
    if (turnIndex >= all.length) turnIndex = 0;
    return { key: all[turnIndex], turn: data.turns[all[turnIndex]] };
  }
  function cellAt(col, row) {
    if (col < 0 || col > 9 || row < 0 || row > 9) return null;
    return document.querySelector('#board [data-cell="' + COLUMNS[col] + (row + 1) + '"]');
  }
  function parse(label) { return { col: COLUMNS.indexOf(label[0]), row: parseInt(label.slice(1), 10) - 1 }; }

  function clearShadow() {
    document.querySelectorAll("#board .cell.shadow").forEach(function (el) { el.classList.remove("shadow"); });
  }
  function showAt(label) {
    const data = ghost();
    clearShadow();
    if (!data || !label) return;
    const now = current(data);
    if (now.turn.cells.indexOf(label) < 0) return;
    const at = parse(label);
    now.turn.squares.forEach(function (sq) {
      const el = cellAt(at.col + sq[0], at.row + sq[1]);
      if (el) el.classList.add("shadow");
    });
  }
  // Only the cells that fit the current orientation are targets (the arrows go through them).
  function markTargets() {
    const data = ghost();
    if (!data) return;
    const fits = current(data).turn.cells;
    document.querySelectorAll("#board a.cell").forEach(function (el) {
      el.classList.toggle("target", fits.indexOf(el.dataset.cell) >= 0);
    });
    const button = document.querySelector("#play .rotate-ghost");
    if (button) button.hidden = turns(data).length < 2;
  }
  function turn() {
    const data = ghost();
    if (!data) {
      const link = document.querySelector("#play .turn-it");
      if (link) link.click();
      return;
    }
    turnIndex = (turnIndex + 1) % turns(data).length;
    markTargets();
    showAt(lastCell);
  }
  function place(label) {
    const data = ghost();
    const board = city();
    if (!data || !board) return false;
    const now = current(data);
    if (now.turn.cells.indexOf(label) < 0) return false;
    const at = parse(label);
    if (board.dataset.confirm === "1") {
      const query = "?pick=" + data.building + "." + label + "." + now.key;
      htmx.ajax("GET", query + "&seq=" + board.dataset.seq, { target: "#play", swap: "outerHTML" });
      return true;
    }
    const form = document.querySelector("#board .place-js");
    form.querySelector("[name=action]").value = JSON.stringify(
      { kind: "place", building: data.building, col: at.col, row: at.row, turn: parseInt(now.key, 10) });
    htmx.trigger(form, "submit");
    return true;
  }

  document.addEventListener("pointerdown", function (event) {
    touching = event.pointerType === "touch" || event.pointerType === "pen";
  });
  document.addEventListener("mouseover", function (event) {
    const cell = event.target.closest && event.target.closest("#board .cell");
    if (!cell) return;
    lastCell = cell.dataset.cell;
    showAt(lastCell);
  });
  document.addEventListener("mouseleave", clearShadow);
  document.addEventListener("focusin", function (event) {
    const cell = event.target.closest && event.target.closest("#board .cell");
    if (!cell) return;
    lastCell = cell.dataset.cell;
    showAt(lastCell);
  });
  document.addEventListener("click", function (event) {
    if (event.target.closest && event.target.closest("#play .rotate-ghost")) {
      event.preventDefault();
      turn();
      return;
    }
    const cell = event.target.closest && event.target.closest("#board a.cell");
    if (!cell || touching || !ghost()) return;
    if (place(cell.dataset.cell)) {
      event.preventDefault();
      event.stopPropagation();
    }
  }, true);
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const here = document.activeElement;
    if (here && /^(INPUT|TEXTAREA|SELECT)$/.test(here.tagName)) return;
    if (event.key === "r" || event.key === "R") {
      if (!ghost() && !document.querySelector("#play .turn-it")) return;
      event.preventDefault();
      turn();
    }
  });
  document.addEventListener("wheel", function (event) {
    if (!ghost() || !(event.target.closest && event.target.closest("#board .city"))) return;
    event.preventDefault();
    turn();
  }, { passive: false });
  function fresh() {
    turnIndex = 0;
    markTargets();
    showAt(lastCell);
  }
  document.body.addEventListener("htmx:afterSwap", fresh);
  document.body.addEventListener("htmx:wsAfterMessage", fresh);
  fresh();
})();
