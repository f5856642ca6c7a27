"""The front door, as new players meet it on a phone and on a desktop: the home page shows a
game being played as a small board, one click on the play-now grid opens a game, and a second
player clicking the same button is seated in it."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .a11y import assert_no_axe_violations
from .site import TIMEOUT, Visitor, screenshot

pytestmark = pytest.mark.browser

SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1366, "height": 768}}
GAME_URL = re.compile(r"/games/(\d+)/$")


def click_play_now(visitor: Visitor, button: str) -> int:
    page = visitor.page
    page.goto("/")
    page.get_by_role("button", name=button).click()
    expect(page).to_have_url(GAME_URL)
    return int(GAME_URL.search(page.url).group(1))


def sideways(page: Page, width: int) -> list:
    return page.evaluate(
        """(width) => document.documentElement.scrollWidth > width
            ? Array.from(document.querySelectorAll("body *"))
                .filter((el) => el.getBoundingClientRect().right > width + 1)
                .map((el) => el.tagName.toLowerCase() + "." + [...el.classList].join("."))
                .slice(0, 4)
            : []""",
        width,
    )


@pytest.mark.parametrize("size", SIZES)
def test_a_new_player_sees_games_in_play_and_is_paired_in_one_click(visitors, screenshots, size):
    viewport = SIZES[size]
    # Two players already at a game of Basilica, paired by the same grid.
    ann, ben = visitors("ann"), visitors("ben")
    playing = click_play_now(ann, "Play Basilica, 1 day a move")
    assert click_play_now(ben, "Play Basilica, 1 day a move") == playing

    carol = visitors("carol")
    page = carol.page
    page.set_viewport_size(viewport)
    page.goto("/")
    board = page.locator(f'a[href="/games/{playing}/"] svg.thumb[role="img"]')
    expect(board).to_be_visible()
    expect(board).to_have_attribute("aria-label", re.compile(rf"^Basilica: {ann.name} against"))
    screenshot(page, screenshots, f"front-door-{size}", "home")
    assert_no_axe_violations(page)
    assert sideways(page, viewport["width"]) == []

    page.goto("/games/")
    screenshot(page, screenshots, f"front-door-{size}", "lobby")
    assert_no_axe_violations(page)
    assert sideways(page, viewport["width"]) == []

    seek = click_play_now(carol, "Play Cathedral, 3 days a move")
    screenshot(page, screenshots, f"front-door-{size}", "waiting")
    dan = visitors("dan")
    dan.page.set_viewport_size(viewport)
    assert click_play_now(dan, "Play Cathedral, 3 days a move") == seek
    # Carol's waiting page opens the board by itself.
    expect(page.locator("#game")).to_be_attached(timeout=TIMEOUT)
    expect(dan.page.locator("#game")).to_be_attached()
    screenshot(dan.page, screenshots, f"front-door-{size}", "paired")


@pytest.mark.parametrize("size", SIZES)
def test_a_visitor_sees_the_grid_lead_to_logging_in(browser, site, screenshots, size):
    context = browser.new_context(base_url=site.url, viewport=SIZES[size])
    try:
        page = context.new_page()
        page.goto("/")
        page.get_by_role("link", name="Log in to play Cathedral, 5+3 live").click()
        expect(page).to_have_url(re.compile(r"/accounts/login/\?next="))
        page.goto("/")
        screenshot(page, screenshots, f"front-door-{size}", "home-visitor")
        assert_no_axe_violations(page)
        assert sideways(page, SIZES[size]["width"]) == []
    finally:
        context.close()
