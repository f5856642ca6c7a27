"""A correspondence player with several games waiting goes from one to the next in a tap: after
a move, the game page offers the next game waiting (the nearest deadline first), in view without
scrolling, on a phone under the thumb; My games lists them most urgent first, without sideways
scrolling on a phone."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .a11y import assert_no_axe_violations
from .site import SIZES, TIMEOUT, Visitor, arrived, screenshot

pytestmark = pytest.mark.browser

# Three days, one day, a week a move: opened in this order, the one-day game is the most urgent.
CLOCKS = ("3d", "1d", "7d")


def cathedral_by_correspondence(ann: Visitor, bob: Visitor, clock: str) -> int:
    """Ann opens a Cathedral seek, playing Light (first), ``clock`` a move; Bob accepts it."""
    page = ann.page
    page.goto("/games/")
    form = page.locator("#new-cathedral")
    if not form.evaluate("el => el.open"):
        form.locator("summary").click()
    form.locator("select[name=cathedral-first]").select_option("me")
    form.locator("select[name=cathedral-time_control]").select_option(clock)
    form.get_by_role("button", name=re.compile("^Open a game of")).click()
    expect(page).to_have_url(re.compile(r"/games/\d+/$"))
    game_id = int(re.search(r"/games/(\d+)/$", page.url).group(1))
    bob.page.goto("/games/")
    bob.page.locator("#seeks li", has_text=ann.name).first.get_by_role(
        "button", name="Accept"
    ).click()
    expect(bob.page).to_have_url(re.compile(rf"/games/{game_id}/$"))
    expect(page.locator("#game")).to_be_attached(timeout=TIMEOUT)
    return game_id


def place(page: Page, touch: bool, building: str = "", cell: str = "") -> None:
    """A move: a building of the hand (the first offered unless named), on a cell (the first
    highlighted unless named), confirmed; then it is the opponent's decision."""
    press = (lambda locator: locator.tap()) if touch else (lambda locator: locator.click())
    tile = f'[data-tile="{building}"]' if building else ""
    press(page.locator(f"#hands .tile.choosable{tile}").first)
    expect(page.locator("#hands .tile.picked")).to_have_count(1)
    target = f'[data-cell="{cell}"]' if cell else ".target"
    press(page.locator(f"#board .cell{target}").first)
    confirm = page.get_by_role("button", name="Place it here")
    expect(confirm).to_be_visible()
    press(confirm)
    expect(page.locator("#status")).to_have_attribute("data-yours", "0")


def place_the_cathedral(page: Page, touch: bool) -> None:
    """The first move of Light: the Cathedral in the middle of the city."""
    place(page, touch, "cathedral", "E5")


def in_view(page: Page, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    return (
        box is not None
        and box["y"] >= 0
        and box["y"] + box["height"] <= page.viewport_size["height"]
    )


@pytest.mark.parametrize("size", SIZES)
def test_a_move_then_a_tap_on_the_next_game_waiting(site, browser, request, screenshots, size):
    touch = size == "phone"
    ann, bob = (
        Visitor.sign_up(browser, site.url, role, request.node.name, SIZES[size], touch)
        for role in ("ann", "bob")
    )
    request.addfinalizer(ann.close)
    request.addfinalizer(bob.close)
    games = [cathedral_by_correspondence(ann, bob, clock) for clock in CLOCKS]
    three_days, one_day, week = games
    page, scenario = ann.page, f"next-game-{size}"

    # Her decision in the three-day game: nothing is offered yet.
    page.goto(f"/games/{three_days}/")
    arrived(page)
    expect(page.locator("#next-game")).to_be_attached()
    expect(page.locator("#next-game a")).to_have_count(0)

    # Her move sent: the other two games waiting are offered, in view, the board not reloaded.
    place_the_cathedral(page, touch)
    offer = page.locator("#next-game a")
    expect(offer).to_have_text(re.compile(r"Next game waiting for you \(2\)"))
    page.evaluate("window.scrollTo(0, 0)")
    assert in_view(page, "#next-game a"), page.locator("#next-game a").bounding_box()
    box = offer.bounding_box()
    assert box["height"] >= 44, f"the offer is {box['height']}px high: too small for a thumb"
    if touch:
        assert box["y"] + box["height"] > SIZES[size]["height"] - 90, f"offer at {box}"
    assert page.evaluate("window.__sameDocument") == 1
    assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size]["width"]
    page.screenshot(path=str(screenshots / f"{scenario}--offered-screen.png"))
    screenshot(page, screenshots, scenario, "offered")
    assert_no_axe_violations(page)

    # A tap: the one-day game, the nearest deadline; then the week's game, then none.
    (offer.tap if touch else offer.click)()
    expect(page).to_have_url(re.compile(rf"/games/{one_day}/$"))
    arrived(page)
    expect(page.locator("#next-game a")).to_have_count(0)
    screenshot(page, screenshots, scenario, "landed")
    place_the_cathedral(page, touch)
    expect(offer).to_have_text(re.compile(r"Next game waiting for you \(1\)"))
    (offer.tap if touch else offer.click)()
    expect(page).to_have_url(re.compile(rf"/games/{week}/$"))
    arrived(page)
    place_the_cathedral(page, touch)
    expect(page.locator("#next-game")).to_be_attached()
    expect(page.locator("#next-game a")).to_have_count(0)

    # Bob answers in the one-day game: it is Ann's turn there again, and My games says so first.
    bob.page.goto(f"/games/{one_day}/")
    arrived(bob.page)
    place(bob.page, touch)
    page.goto("/games/mine/")
    rows = page.locator("#my-games tbody tr")
    expect(rows).to_have_count(3)
    expect(rows.nth(0)).to_contain_text("your move")
    expect(rows.nth(0).locator(".last-activity")).to_contain_text(f"{bob.name} moved")
    expect(rows.nth(1).locator(".last-activity")).to_contain_text("you moved")
    assert rows.nth(0).locator("a").first.get_attribute("href") == f"/games/{one_day}/"
    assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size]["width"]
    screenshot(page, screenshots, scenario, "my-games")
    assert_no_axe_violations(page)

    # Bob answers in the three-day game too; Ann moves in the one-day game, is offered the
    # other, and the offer steps aside as soon as Bob's answer makes it her turn again here.
    bob.page.goto(f"/games/{three_days}/")
    arrived(bob.page)
    place(bob.page, touch)
    page.goto(f"/games/{one_day}/")
    arrived(page)
    place(page, touch)
    expect(offer).to_have_text(re.compile(r"Next game waiting for you \(1\)"))
    expect(offer).to_be_visible()
    bob.page.goto(f"/games/{one_day}/")
    arrived(bob.page)
    place(bob.page, touch)
    expect(page.locator("#status")).to_have_attribute("data-yours", "1")
    expect(offer).to_be_hidden()
    page.screenshot(path=str(screenshots / f"{scenario}--my-turn-again-screen.png"))
    for visitor in (ann, bob):
        visitor.assert_no_console_errors()
