"""Two players talk during a game in real browsers, at a phone's size (the chat behind its tab,
with the count of lines unread) and a wide desktop's (the chat beside the board): a line typed by one
reaches the other at once, shown as typed (markup and links as plain text), and a quick message
answers it."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .a11y import assert_no_axe_violations
from .site import players, screenshot

pytestmark = pytest.mark.browser

LINE = "Good luck! <b>bold?</b> see https://example.com/tricks"


def send(page, text: str) -> None:
    page.locator("#chat-players-text").fill(text)
    page.locator("#chat-players-form .chat-write button").click()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_two_players_chat_during_a_game(site, browser, request, screenshots, size):
    first, second, _game_id = players(site, browser, request, size, "basilica", seed=41)
    ann, bob = first.page, second.page
    chat, tab = ann.locator("#chat"), ann.locator(".chat-tab")
    if size == "phone":
        expect(tab).to_be_visible()
        expect(chat).to_be_hidden()  # behind its tab: the board comes first
        tab.click()
    else:
        for page in (ann, bob):  # a desktop's wide screen: a laptop's keeps the game on one
            page.set_viewport_size({"width": 1600, "height": 900})  # screen, the chat under it
        expect(tab).to_be_hidden()
        board, beside = ann.locator("#board").bounding_box(), chat.bounding_box()
        assert beside["x"] >= board["x"] + board["width"]  # beside the board, to its right
    expect(chat).to_be_visible()
    screenshot(ann, screenshots, f"chat-{size}", "1-open")

    send(ann, LINE)
    lines = bob.locator("#chat-players-lines .chat-line")
    expect(lines).to_have_count(1)  # pushed over the socket, without a reload
    expect(lines.first.locator(".chat-text")).to_have_text(LINE)
    assert (
        bob.locator("#chat-players-lines a[href*='example.com'], #chat-players-lines b").count()
        == 0
    )
    expect(ann.locator("#chat-players-lines .chat-line")).to_have_count(1)  # once, not twice
    expect(ann.locator("#chat-players-text")).to_have_value("")
    if size == "phone":
        badge = bob.locator(".chat-tab .chat-unread")
        expect(badge).to_have_text("1")
        screenshot(bob, screenshots, f"chat-{size}", "2-unread")
        bob.locator(".chat-tab").click()
        expect(badge).to_be_hidden()
    screenshot(bob, screenshots, f"chat-{size}", "3-received")

    bob.locator("#chat-players-form .quick", has_text="Thanks for the game").click()
    expect(ann.locator("#chat-players-lines .chat-line")).to_have_count(2)
    expect(ann.locator("#chat-players-lines .chat-line").last).to_contain_text(
        "Thanks for the game"
    )
    screenshot(ann, screenshots, f"chat-{size}", "4-answered")
    for page in (ann, bob):
        width = page.viewport_size["width"]
        assert page.evaluate("document.documentElement.scrollWidth") <= width  # never sideways
        assert_no_axe_violations(page)
    first.assert_no_console_errors()
    second.assert_no_console_errors()
