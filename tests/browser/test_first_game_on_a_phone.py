"""Two new players' first game, each on a phone, with taps only: from the home page to the sign-up,
a game opened in the lobby and accepted, the first turn of three actions, and the opponent's page
following it. Every page on the way fits the screen and has no serious fault that axe finds."""

from __future__ import annotations

import re
import uuid

import pytest
from playwright.sync_api import Browser, Page, expect

from .a11y import assert_no_axe_violations
from .site import PAGE_PROBE, PASSWORD, POLL, SYNCED, TIMEOUT, Visitor, arrived, seq_of

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}


class Walk:
    """Where the players are: each page they reach is checked, then photographed."""

    def __init__(self, directory) -> None:
        self.directory = directory
        self.shots = 0

    def check(self, page: Page, moment: str) -> None:
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"{moment}: the page is {width}px wide on a phone"
        assert_no_axe_violations(page)
        self.shots += 1
        path = self.directory / f"first-game-phone--{self.shots:02d}-{moment}.png"
        page.screenshot(path=str(path), full_page=True)


def on_a_phone(browser: Browser, base_url: str, role: str) -> Visitor:
    context = browser.new_context(
        base_url=base_url, viewport=PHONE, has_touch=True, is_mobile=True, device_scale_factor=1
    )
    context.set_default_timeout(TIMEOUT)
    context.add_init_script(PAGE_PROBE)
    visitor = Visitor(f"{role}-{uuid.uuid4().hex[:6]}", context, context.new_page())
    visitor.watch(visitor.page)
    return visitor


def sign_up(visitor: Visitor, walk: Walk) -> None:
    page, who = visitor.page, visitor.name.split("-")[0]
    page.goto("/")
    walk.check(page, f"{who}-home")
    page.get_by_role("link", name="Sign up").first.tap()
    expect(page).to_have_url(re.compile(r"/accounts/signup/$"))
    walk.check(page, f"{who}-signup")
    page.fill("#id_username", visitor.name)
    page.fill("#id_email", f"{visitor.name}@example.org")
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.get_by_role("button", name="Sign up").tap()
    expect(page).to_have_url(re.compile(r"/games/$"))
    walk.check(page, f"{who}-lobby")


def tap_and_wait(page: Page, selector: str) -> None:
    """Tap one thing of the game and wait for the part of the page it redraws."""
    page.evaluate("document.getElementById('play').dataset.stale = '1'")
    target = page.locator(selector).first
    target.scroll_into_view_if_needed()
    target.tap()
    page.wait_for_function(
        "() => document.getElementById('play')?.dataset.stale !== '1'", polling=POLL
    )
    assert not page.locator("#status .error").count(), page.locator("#status .error").inner_text()


def test_two_new_players_play_a_first_turn_on_their_phones(site, browser, screenshots):
    walk = Walk(screenshots)
    alice, bob = on_a_phone(browser, site.url, "alice"), on_a_phone(browser, site.url, "bob")
    try:
        sign_up(alice, walk)
        sign_up(bob, walk)

        # Alice opens a game of Basilica in the lobby, moving first.
        a = alice.page
        form = a.locator("#new-basilica")
        if not form.evaluate("el => el.open"):
            form.locator("summary").tap()
        form.locator("select[name=basilica-first]").select_option("me")
        walk.check(a, "alice-new-game-form")
        form.get_by_role("button", name=re.compile("^Open a game of")).tap()
        expect(a).to_have_url(re.compile(r"/games/\d+/$"))
        game_id = int(re.search(r"/games/(\d+)/$", a.url).group(1))
        site.fix_deal(game_id, 24)
        walk.check(a, "alice-waiting")

        # Bob finds it in his lobby and accepts; Alice's waiting page opens the board.
        b = bob.page
        b.reload()
        seek = b.locator("#seeks li", has_text=alice.name)
        walk.check(b, "bob-lobby-with-the-seek")
        seek.get_by_role("button", name="Accept").tap()
        expect(b).to_have_url(re.compile(rf"/games/{game_id}/$"))
        expect(a.locator("#game")).to_be_attached()
        arrived(a)
        arrived(b)
        walk.check(a, "alice-game-starts")
        walk.check(b, "bob-game-starts")

        # Alice's first turn, three actions: a vault from the market, a cell, then confirm.
        for action in range(1, 4):
            tap_and_wait(a, "#market .tile.vault.choosable")
            expect(a.locator("#play .cell.target").first).to_be_attached()
            walk.check(a, f"alice-action-{action}-vault-picked")
            tap_and_wait(a, "#play .cell.target")
            expect(a.locator(".prompt .choice.confirm")).to_be_visible()
            walk.check(a, f"alice-action-{action}-confirm")
            tap_and_wait(a, ".prompt .choice.confirm")
            assert seq_of(a) == action
            # Bob's page follows by itself, pushed, never reloaded.
            b.wait_for_function(SYNCED, arg=action, polling=POLL)
            walk.check(b, f"bob-sees-action-{action}")

        # The turn is Bob's now, on both pages.
        expect(a.locator("#status")).to_have_attribute("data-yours", "0")
        expect(b.locator("#status")).to_have_attribute("data-yours", "1")
        expect(b.locator(".last-move")).to_contain_text(alice.name)
        expect(b.locator(".prompt")).to_be_visible()
        walk.check(a, "alice-after-her-turn")
        walk.check(b, "bob-to-move")
        for visitor in (alice, bob):
            visitor.assert_no_console_errors()
    finally:
        alice.close()
        bob.close()
