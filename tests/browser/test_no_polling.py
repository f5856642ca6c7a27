"""Nothing asks the server on a timer: the lobby shows a new seek, the waiting page opens the
board and the list of games being played shows a new game, each by itself and without a reload;
while nothing changes, none of these pages asks the server anything. A lobby that lost its
connection catches up when it is back."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import Page, expect

from .a11y import assert_accessible
from .site import PAGE_PROBE, TIMEOUT, Visitor, screenshot

pytestmark = pytest.mark.browser

QUIET_SECONDS = 8

# Every socket's opening, counted: a page is followed once its socket is open.
SOCKETS_OPENED = """
window.__socketsOpened = 0;
document.addEventListener("htmx:wsOpen", () => { window.__socketsOpened += 1; });
"""


class Asked:
    """The requests a page makes to the server's /games/ pages by itself (htmx's, not a
    navigation), counted from when the page is handed over."""

    def __init__(self, page: Page) -> None:
        self.urls: list[str] = []
        page.on("request", self._heard)

    def _heard(self, request) -> None:
        if request.resource_type in ("xhr", "fetch") and "/games/" in request.url:
            self.urls.append(request.url)

    def since(self, mark: int) -> list[str]:
        return self.urls[mark:]


def followed(page: Page, path: str, opened: int = 1) -> None:
    """Open ``path``, wait for its socket, and mark the document: a reload would lose the mark."""
    page.goto(path)
    page.wait_for_function(
        "(opened) => window.__socketsOpened >= opened", arg=opened, timeout=TIMEOUT
    )
    page.evaluate("window.__sameDocument = 1")


def same_document(page: Page) -> bool:
    return page.evaluate("window.__sameDocument") == 1


def open_seek(page: Page) -> int:
    """Open a Basilica seek from the lobby's form; the page goes to the game's waiting page."""
    page.goto("/games/")
    form = page.locator("#new-basilica")
    if not form.evaluate("el => el.open"):
        form.locator("summary").click()
    form.get_by_role("button", name=re.compile("^Open a game of")).click()
    expect(page).to_have_url(re.compile(r"/games/\d+/$"))
    return int(re.search(r"/games/(\d+)/$", page.url).group(1))


def anonymous_page(browser, site) -> tuple:
    context = browser.new_context(base_url=site.url)
    context.set_default_timeout(TIMEOUT)
    context.add_init_script(PAGE_PROBE)
    context.add_init_script(SOCKETS_OPENED)
    errors: list[str] = []
    page = context.new_page()
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    return context, page, errors


def visitor(visitors, role: str) -> Visitor:
    made = visitors(role)
    made.context.add_init_script(SOCKETS_OPENED)
    return made


def test_the_lobby_the_waiting_page_and_the_watch_list_follow_without_asking(
    site, browser, visitors, screenshots
):
    alice, bob = visitor(visitors, "alice"), visitor(visitors, "bob")
    context, watcher, errors = anonymous_page(browser, site)
    try:
        followed(bob.page, "/games/")
        followed(watcher, "/games/now/")
        game = open_seek(alice.page)
        followed(alice.page, f"/games/{game}/")
        expect(bob.page.locator("#seeks li", has_text=alice.name)).to_be_visible()
        assert same_document(bob.page), "the lobby was reloaded"

        # Nothing changes: none of the three pages asks the server anything.
        asked = {page: Asked(page) for page in (alice.page, bob.page, watcher)}
        time.sleep(QUIET_SECONDS)
        for page, requests in asked.items():
            assert requests.since(0) == [], f"{page.url} asked on its own: {requests.urls}"
        screenshot(bob.page, screenshots, "no-polling", "01-lobby-with-the-seek")

        # Bob accepts: Alice's waiting page opens the board, and the watch list shows the game.
        bob.page.locator("#seeks li", has_text=alice.name).get_by_role(
            "button", name="Accept"
        ).click()
        expect(bob.page).to_have_url(re.compile(rf"/games/{game}/$"))
        expect(alice.page.locator("#game")).to_be_attached()
        expect(watcher.get_by_role("link", name=f"Watch game {game}")).to_be_visible()
        assert same_document(watcher), "the watch list was reloaded"
        assert asked[watcher].since(0), "the watch list never asked for the new game"
        screenshot(watcher, screenshots, "no-polling", "02-watch-list-with-the-game")
        assert_accessible(watcher)
    finally:
        context.close()
    assert not errors, errors


def test_a_lobby_that_lost_its_connection_catches_up(site, visitors, screenshots):
    alice, carol = visitor(visitors, "alice"), visitor(visitors, "carol")
    lobby = carol.page
    followed(lobby, "/games/")
    lobby.evaluate("window.__dropSocket()")

    game = open_seek(alice.page)
    time.sleep(1.5)  # a socket that is open hears of a seek well within this
    seeks = lobby.locator("#seeks li", has_text=alice.name)
    expect(seeks).to_have_count(0)  # nothing reached the lost socket

    saying = lobby.evaluate(
        "() => { window.__noticeDrop(); return document.querySelector('.live-note').textContent; }"
    )
    assert saying.startswith("Connection lost: reconnecting")
    # htmx reconnects by itself after a short pause; the server tells the page it missed news.
    expect(seeks).to_have_count(1)
    expect(lobby.locator(".live-note")).to_be_hidden()
    assert same_document(lobby), "the lobby was reloaded"
    screenshot(lobby, screenshots, "no-polling", "03-lobby-caught-up")

    # Live again: Alice cancels from her waiting page, which takes her to the lobby (not to the
    # page of the game cancelled), and Carol's lobby drops the seek by itself.
    followed(alice.page, f"/games/{game}/")
    alice.page.get_by_role("button", name="Cancel this game").click()
    expect(alice.page).to_have_url(re.compile(r"/games/$"))
    expect(alice.page.get_by_text(f"Game {game} was cancelled.")).to_be_visible()
    expect(seeks).to_have_count(0)
    assert same_document(lobby), "the lobby was reloaded"
