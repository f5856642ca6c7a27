"""The board first, on a phone held in one hand and on a laptop: the mover's page opens on the
board (and Basilica's market), the board stays where it is while the player chooses, the cells a
chosen tile may go to are in view, and a turn takes few taps."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .a11y import assert_no_axe_violations
from .site import (
    POLL,
    SIZES,
    SYNCED,
    arrived,
    drag_to_the_board,
    never_confirm,
    players,
    screenshot,
    seq_of,
)

pytestmark = pytest.mark.browser


# Where an element is on the page (not on the screen): what moves when the layout moves.
PAGE_BOX = """
(selector) => {
  const r = document.querySelector(selector).getBoundingClientRect();
  return { top: r.top + window.scrollY, bottom: r.bottom + window.scrollY,
           left: r.left, right: r.right, screenTop: r.top, screenBottom: r.bottom };
}
"""
# The highlighted cells that are not on the screen, above or below it.
OFF_SCREEN_TARGETS = """
() => Array.from(document.querySelectorAll("#board .cell.target")).filter((el) => {
  const r = el.getBoundingClientRect();
  return r.top < 0 || r.bottom > window.innerHeight;
}).map((el) => el.dataset.cell)
"""


def tap(page: Page, selector: str, touch: bool) -> None:
    """Tap (or click) one thing of the game, without scrolling to it first, and wait for the part
    of the page it redraws: a thing a player must scroll to find is a thing this test misses."""
    page.evaluate("document.getElementById('play').dataset.stale = '1'")
    target = page.locator(selector).first
    box = target.bounding_box()
    assert box, f"{selector} is not drawn"
    assert box["y"] >= 0, f"{selector} is above the screen at {box}"
    assert box["y"] + box["height"] <= page.viewport_size["height"], f"{selector} is below at {box}"
    if touch:
        target.tap()
    else:
        target.click()
    page.wait_for_function(
        "() => document.getElementById('play')?.dataset.stale !== '1'", polling=POLL
    )
    assert not page.locator("#status .error").count(), page.locator("#status .error").inner_text()


@pytest.mark.parametrize("size", SIZES)
def test_basilica_opens_on_the_market_and_the_board_and_keeps_them_still(
    site, browser, request, screenshots, size
):
    first, second, _ = players(site, browser, request, size, "basilica", seed=24)
    page, height = first.page, SIZES[size]["height"]
    page.evaluate("window.scrollTo(0, 0)")
    market, board = page.evaluate(PAGE_BOX, "#market"), page.evaluate(PAGE_BOX, "#board")
    screenshot(page, screenshots, f"board-first-basilica-{size}", "opened")
    assert market["bottom"] <= height, (
        f"the market ends {market['bottom']}px down, below the screen"
    )
    assert board["top"] <= height - 150, f"the board starts {board['top']}px down"
    if size == "desktop":
        # the centre of the screen, the market on its left
        assert market["right"] <= board["left"]
        assert page.evaluate("document.documentElement.scrollHeight") <= height + 2

    # A vault chosen: nothing moves, and every cell it may go to is on the screen.
    tap(page, "#market .tile.vault.choosable", touch=size == "phone")
    expect(page.locator("#board .cell.target").first).to_be_attached()
    after = page.evaluate(PAGE_BOX, "#board")
    screenshot(page, screenshots, f"board-first-basilica-{size}", "vault-chosen")
    assert abs(after["top"] - board["top"]) <= 4, f"the board moved {after['top'] - board['top']}px"
    assert page.evaluate(OFF_SCREEN_TARGETS) == []
    # The cell tapped: a correspondence game asks to confirm, beside the piece on a desktop and
    # under the thumb on a phone; confirmed, the market is where it was (the board may grow a
    # row at its top).
    tap(page, "#board .cell.target", touch=size == "phone")
    confirm = page.locator(".prompt .choice.confirm")
    expect(confirm).to_be_visible()
    box, cell = confirm.bounding_box(), page.locator("#board .cell.picked").bounding_box()
    if size == "desktop":
        gap = max(box["y"] - (cell["y"] + cell["height"]), cell["y"] - (box["y"] + box["height"]))
        assert gap <= 40, f"confirm at {box}, cell at {cell}"
        assert abs(box["x"] - cell["x"]) <= 200, f"confirm at {box}, cell at {cell}"
    else:
        assert box["y"] + box["height"] > SIZES[size]["height"] - 120, f"confirm at {box}"
    screenshot(page, screenshots, f"board-first-basilica-{size}", "confirm")
    tap(page, ".prompt .choice.confirm", touch=size == "phone")
    assert seq_of(page) == 1
    screenshot(page, screenshots, f"board-first-basilica-{size}", "placed")
    moved = page.evaluate(PAGE_BOX, "#market")["top"] - market["top"]
    assert abs(moved) <= 4, f"the market moved {moved}px"
    assert_no_axe_violations(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size]["width"]
    second.page.evaluate("window.scrollTo(0, 0)")
    screenshot(second.page, screenshots, f"board-first-basilica-{size}", "opponent")
    for visitor in (first, second):
        visitor.assert_no_console_errors()


@pytest.mark.parametrize("size", SIZES)
def test_cathedral_opens_on_the_city(site, browser, request, screenshots, size):
    first, second, _ = players(site, browser, request, size, "cathedral", seed=5)
    page, height = first.page, SIZES[size]["height"]
    page.evaluate("window.scrollTo(0, 0)")
    board = page.evaluate(PAGE_BOX, "#board")
    screenshot(page, screenshots, f"board-first-cathedral-{size}", "opened")
    assert board["top"] <= height - 200, f"the city starts {board['top']}px down"
    if size == "desktop":
        assert board["bottom"] <= height, f"the city ends {board['bottom']}px down"

    # A building chosen from the hand: the city stays where it was.
    tap(page, "#hands .piece.choosable", touch=size == "phone")
    after = page.evaluate(PAGE_BOX, "#board")
    screenshot(page, screenshots, f"board-first-cathedral-{size}", "building-chosen")
    assert abs(after["top"] - board["top"]) <= 4, f"the city moved {after['top'] - board['top']}px"
    assert_no_axe_violations(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size]["width"]
    for visitor in (first, second):
        visitor.assert_no_console_errors()


def test_a_turn_of_three_actions_takes_six_taps_on_a_phone(site, browser, request, screenshots):
    first, second, game_id = players(site, browser, request, "phone", "basilica", seed=24)
    never_confirm(first, game_id)
    page = first.page
    taps = 0
    while page.locator("#status").get_attribute("data-yours") == "1":
        before = seq_of(page)
        tap(page, "#market .tile.vault.choosable", touch=True)
        tap(page, "#board .cell.target", touch=True)
        taps += 2
        assert seq_of(page) == before + 1, "the second tap did not send the move"
        second.page.wait_for_function(SYNCED, arg=before + 1, polling=POLL)
        assert taps <= 6, "the turn is not over after six taps"
    assert taps == 6
    expect(second.page.locator("#status")).to_have_attribute("data-yours", "1")
    screenshot(second.page, screenshots, "board-first-six-taps", "opponent-to-move")


# The elements a move changed that are moving now (or have just moved, their animation kept).
MOVING = """
() => Array.from(document.querySelectorAll(".arriving")).filter((el) => el.getAnimations().length).length
"""


def test_a_move_arrives_in_motion_unless_the_player_asked_for_reduced_motion(
    site, browser, request, screenshots
):
    first, second, game_id = players(site, browser, request, "desktop", "basilica", seed=24)
    still = second.new_tab()
    still.emulate_media(reduced_motion="reduce")
    still.goto(f"/games/{game_id}/")
    arrived(still)
    page = first.page
    tap(page, "#market .tile.vault.choosable", touch=False)
    assert page.locator(".arriving").count() == 0, "a tap that only picks moved the last move again"
    tap(page, "#board .cell.target", touch=False)
    if page.locator(".prompt .choice.confirm").count():
        tap(page, ".prompt .choice.confirm", touch=False)
    assert seq_of(page) == 1
    assert page.evaluate(MOVING) >= 1, "the mover's own vault did not move into place"
    for watcher in (second.page, still):
        watcher.wait_for_function(SYNCED, arg=1, polling=POLL)
    assert second.page.evaluate(MOVING) >= 1, "the opponent's vault appeared without motion"
    assert still.locator("#board .cell.arriving").count() >= 1
    assert still.evaluate(MOVING) == 0, "a page asking for reduced motion moved"
    for visitor in (first, second):
        visitor.assert_no_console_errors()


def test_a_turn_of_three_actions_by_drag_and_drop(site, browser, request, screenshots):
    first, second, game_id = players(site, browser, request, "desktop", "basilica", seed=24)
    never_confirm(first, game_id)
    page = first.page
    drags = 0
    while page.locator("#status").get_attribute("data-yours") == "1":
        drag_to_the_board(page, "#market .tile.vault.choosable")
        drags += 1
        assert drags <= 3, "the turn is not over after three drags"
        second.page.wait_for_function(SYNCED, arg=seq_of(page), polling=POLL)
    assert drags == 3
    assert page.locator(".drag-avatar").count() == 0, "a dragged tile was left on the page"
    expect(second.page.locator("#status")).to_have_attribute("data-yours", "1")
    assert second.page.locator("#board .cell.changed").count() >= 1
    screenshot(page, screenshots, "board-first-drag-and-drop", "turn-done")
    for visitor in (first, second):
        visitor.assert_no_console_errors()


def test_the_cathedral_dragged_onto_the_city(site, browser, request, screenshots):
    first, second, game_id = players(site, browser, request, "desktop", "cathedral", seed=5)
    never_confirm(first, game_id)
    page = first.page
    drag_to_the_board(page, "#hands .piece.choosable")
    second.page.wait_for_function(SYNCED, arg=1, polling=POLL)
    assert second.page.locator("#board .cell.cathedral-piece").count() == 6
    screenshot(second.page, screenshots, "board-first-drag-and-drop", "cathedral-placed")
    for visitor in (first, second):
        visitor.assert_no_console_errors()
