"""Every kind of page the site has, as a new player meets it: no serious or critical fault that
axe-core finds, and on a phone no sideways scrolling."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from .a11y import assert_no_axe_violations
from .site import TIMEOUT, Table, Visitor, arrived, open_game, screenshot, seq_of

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}


@dataclass
class Places:
    """Three people and the games they played, made once for the module."""

    alice: Visitor
    bob: Visitor
    carol: Visitor
    urls: dict[str, tuple[str, str]] = field(default_factory=dict)  # page: (who, address)


def open_series(site, alice: Visitor, bob: Visitor) -> int:
    """A Cathedral series of two games: Alice opens it in the lobby, Bob accepts."""
    page = alice.page
    page.goto("/games/")
    form = page.locator("#new-cathedral")
    if not form.evaluate("el => el.open"):
        form.locator("summary").click()
    form.locator("select[name=cathedral-series]").select_option("2")
    form.get_by_role("button", name=re.compile("^Open a game of")).click()
    expect(page).to_have_url(re.compile(r"/games/\d+/$"))
    game_id = int(re.search(r"/games/(\d+)/$", page.url).group(1))
    bob.page.goto("/games/")
    bob.page.locator("#seeks li", has_text=alice.name).get_by_role("button", name="Accept").click()
    expect(bob.page).to_have_url(re.compile(rf"/games/{game_id}/$"))
    series = page.locator("a[href*='/games/series/']").first
    expect(series).to_be_attached(timeout=TIMEOUT)
    return int(re.search(r"/series/(\d+)/", series.get_attribute("href")).group(1))


def open_tournament(alice: Visitor, bob: Visitor) -> str:
    """A round robin of three, to start when full: Alice creates it, Bob joins (by HTMX)."""
    page = alice.page
    page.goto("/games/tournaments/new/")
    page.get_by_label("Name").fill("Phone cup")
    page.get_by_label("Most players").fill("3")
    page.get_by_label("when full").check()
    page.get_by_role("button", name="Create the tournament").click()
    expect(page).to_have_url(re.compile(r"/games/tournaments/\d+/$"))
    address = re.search(r"/games/tournaments/\d+/$", page.url).group(0)
    bob.page.goto(address)
    bob.page.get_by_role("button", name="Join").click()
    expect(bob.page.locator("#entry")).to_contain_text("You have joined.")
    return address


def analysed(page: Page, game_id: int) -> None:
    """A spectator asks for the computer's analysis of a finished game, and waits for the
    compute worker to make it (the replay page has no socket: it is looked at again)."""
    page.goto(f"/games/{game_id}/replay/")
    page.get_by_role("button", name="Ask the computer to analyse this game").click()
    for _ in range(120):
        if page.locator("#analysis svg").count():
            return
        page.wait_for_timeout(500)
        page.goto(f"/games/{game_id}/replay/")
    raise AssertionError("the analysis did not come within a minute")


@pytest.fixture(scope="module")
def places(site, browser: Browser) -> Places:
    people = [Visitor.sign_up(browser, site.url, role, "every-page") for role in "abc"]
    alice, bob, carol = people
    try:
        # A Basilica game some actions in, Alice to decide.
        game = open_game(site, alice, bob, "2022", seed=24)
        arrived(alice.page)
        arrived(bob.page)
        table = Table([alice.page, bob.page], [], random.Random(24))
        table.play(until=lambda: seq_of(alice.page) >= 6 and table.decider() is alice.page)
        # A finished one: Bob resigns after a few actions.
        done = open_game(site, bob, alice, "2010", seed=25)
        arrived(alice.page)
        arrived(bob.page)
        Table([bob.page, alice.page], [], random.Random(25)).play(
            until=lambda: seq_of(bob.page) >= 4
        )
        # Only the finished page is under test here: the resign form is sent as it stands.
        bob.page.goto(f"/games/{done}/")
        arrived(bob.page)
        with bob.page.expect_navigation():
            bob.page.locator("form[action$='/resign/']").evaluate("form => form.submit()")
        expect(bob.page.locator(".result")).to_be_visible()
        analysed(carol.page, done)
        cathedral = open_game(site, alice, bob, "", 1, kind="cathedral")
        series = open_series(site, alice, bob)
        # Alice follows Bob from his page (htmx swaps the button), Carol blocks Bob from his.
        alice.page.goto(f"/players/{bob.name}/")
        alice.page.get_by_role("button", name="Follow").click()
        expect(alice.page.get_by_role("button", name="Unfollow")).to_be_visible()
        carol.page.goto(f"/players/{bob.name}/")
        carol.page.once("dialog", lambda dialog: dialog.accept())
        carol.page.get_by_role("button", name="Block").click()
        expect(carol.page.get_by_role("button", name="Unblock")).to_be_visible()
        tournament = open_tournament(alice, bob)
        places = Places(alice, bob, carol)
        places.urls = {
            "home": ("nobody", "/"),
            "home-player": ("alice", "/"),
            "login": ("nobody", "/accounts/login/"),
            "signup": ("nobody", "/accounts/signup/"),
            "lobby": ("alice", "/games/"),
            "basilica-player": ("alice", f"/games/{game}/"),
            "basilica-opponent": ("bob", f"/games/{game}/"),
            "basilica-spectator": ("carol", f"/games/{game}/"),
            "basilica-finished": ("alice", f"/games/{done}/"),
            "cathedral-player": ("alice", f"/games/{cathedral}/"),
            "cathedral-prepare": ("bob", f"/games/{cathedral}/prepare/"),
            "replay": ("carol", f"/games/{game}/replay/?step=5"),
            "replay-finished": ("carol", f"/games/{done}/replay/"),
            "replay-analysed": ("alice", f"/games/{done}/replay/#analysis"),
            "rules-basilica": ("nobody", "/rules/"),
            "rules-cathedral": ("nobody", "/rules/cathedral/"),
            "my-games": ("alice", "/games/mine/"),
            "watch": ("carol", "/games/now/"),
            "profile": ("carol", f"/players/{alice.name}/"),
            "history": ("carol", f"/players/{alice.name}/history/"),
            "import": ("alice", "/games/import/"),
            "series": ("alice", f"/games/series/{series}/"),
            "settings": ("alice", "/settings/"),
            "close-account": ("carol", "/settings/close/"),
            "settings-blocked": ("carol", "/settings/"),
            "following": ("alice", "/following/"),
            "profile-followed": ("alice", f"/players/{bob.name}/"),
            "ratings": ("nobody", "/ratings/"),
            "tournaments": ("carol", "/games/tournaments/"),
            "tournament-new": ("alice", "/games/tournaments/new/"),
            "tournament": ("bob", tournament),
        }
        yield places
        for person in people:
            person.assert_no_console_errors()
    finally:
        for person in people:
            person.close()


PAGES = [
    "home",
    "home-player",
    "login",
    "signup",
    "lobby",
    "basilica-player",
    "basilica-opponent",
    "basilica-spectator",
    "basilica-finished",
    "cathedral-player",
    "cathedral-prepare",
    "replay",
    "replay-finished",
    "replay-analysed",
    "rules-basilica",
    "rules-cathedral",
    "my-games",
    "watch",
    "profile",
    "history",
    "import",
    "series",
    "settings",
    "close-account",
    "settings-blocked",
    "following",
    "profile-followed",
    "ratings",
    "tournaments",
    "tournament-new",
    "tournament",
]


def visit(site, browser: Browser, places: Places, name: str, viewport: dict) -> Page:
    who, address = places.urls[name]
    if who == "nobody":
        context: BrowserContext = browser.new_context(base_url=site.url, viewport=viewport)
        context.set_default_timeout(TIMEOUT)
        page = context.new_page()
    else:
        page = getattr(places, who).new_tab()
        page.set_viewport_size(viewport)
    page.goto(address)
    if page.locator("#connection").count():
        expect(page.locator("#connection")).to_have_attribute("data-state", "open")
    return page


def leave(page: Page, places: Places) -> None:
    if page.context in {places.alice.context, places.bob.context, places.carol.context}:
        page.close()
    else:
        page.context.close()


@pytest.mark.parametrize("name", PAGES)
def test_axe_finds_no_serious_fault(site, browser, places, name):
    page = visit(site, browser, places, name, {"width": 1280, "height": 900})
    try:
        assert_no_axe_violations(page)
        if name == "basilica-player":
            # Halfway through an action: a vault picked, its cells to choose from.
            page.locator("#market .tile.vault.choosable").first.click()
            expect(page.locator("#play .cell.target").first).to_be_attached()
            assert_no_axe_violations(page)
    finally:
        leave(page, places)


@pytest.mark.parametrize("name", PAGES)
def test_no_sideways_scrolling_on_a_phone(site, browser, places, screenshots, name):
    page = visit(site, browser, places, name, PHONE)
    try:
        screenshot(page, screenshots, "every-page-phone", name)
        wide = page.evaluate(
            """(width) => [document.documentElement.scrollWidth,
                ...Array.from(document.querySelectorAll("body *"))
                .filter((el) => el.getBoundingClientRect().right > width + 1)
                .map((el) => el.tagName.toLowerCase() + "." + [...el.classList].join("."))
                .slice(0, 4)]""",
            PHONE["width"],
        )
        assert wide[0] <= PHONE["width"], f"{wide[0]}px wide, because of {wide[1:]}"
        # A table that scrolls in its own box must be reachable by keyboard, among others.
        assert_no_axe_violations(page)
    finally:
        leave(page, places)
