"""A player keeps notes on a game in a real browser: typed, saved by themselves a moment later,
there again after a reload, and nowhere on the opponent's page."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .a11y import assert_no_axe_violations
from .site import arrived, players, screenshot

pytestmark = pytest.mark.browser

NOTE = "Keep the red area for the third scoring.\nHe plays Disaster late: hold a coin."


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_note_typed_is_saved_by_itself_and_read_by_its_writer_alone(
    site, browser, request, screenshots, size
):
    writer, opponent, game_id = players(site, browser, request, size, "basilica", seed=31)
    page = writer.page
    notes = page.locator("#notes")
    screenshot(page, screenshots, f"notes-{size}", "1-closed")
    notes.locator("summary").click()
    box = page.get_by_label("Notes", exact=True)
    box.press_sequentially(NOTE, delay=5)
    # Saved a second after the typing stops, said politely beside the button.
    expect(page.locator("#notes-status")).to_have_text(re.compile(r"^Saved at \d\d:\d\d\.$"))
    assert page.locator("#notes-status").get_attribute("aria-live") == "polite"
    screenshot(page, screenshots, f"notes-{size}", "2-saved")
    assert_no_axe_violations(page)

    page.reload()
    arrived(page)
    expect(notes).to_have_attribute("open", "")
    expect(box).to_have_value(NOTE)
    expect(page.locator("#notes-status")).to_contain_text("Last saved")
    screenshot(page, screenshots, f"notes-{size}", "3-reloaded")

    opponent.page.reload()
    arrived(opponent.page)
    assert "Keep the red area" not in opponent.page.content()
    expect(opponent.page.get_by_label("Notes", exact=True)).to_have_value("")

    page.goto(f"/games/{game_id}/replay/")
    expect(page.locator(".notes-read")).to_contain_text("Keep the red area")
    screenshot(page, screenshots, f"notes-{size}", "4-replay")
    opponent.page.goto(f"/games/{game_id}/replay/")
    assert "Keep the red area" not in opponent.page.content()
    writer.assert_no_console_errors()
    opponent.assert_no_console_errors()


def test_a_note_emptied_is_cleared(site, browser, request):
    writer, _opponent, _game = players(site, browser, request, "desktop", "basilica", seed=32)
    page = writer.page
    page.locator("#notes summary").click()
    box = page.get_by_label("Notes", exact=True)
    box.press_sequentially("a short one")
    expect(page.locator("#notes-status")).to_contain_text("Saved at")
    box.fill("")
    expect(page.locator("#notes-status")).to_contain_text("Cleared")
    page.reload()
    arrived(page)
    expect(box).to_have_value("")
    writer.assert_no_console_errors()


def test_a_save_that_fails_says_so_and_the_text_stays_to_be_saved_again(site, browser, request):
    writer, _opponent, _game = players(site, browser, request, "desktop", "basilica", seed=33)
    page = writer.page
    page.locator("#notes summary").click()
    box = page.get_by_label("Notes", exact=True)
    status = page.locator("#notes-status")

    with writer.expecting_console_error("ERR_FAILED|htmx:sendError|htmx:afterRequest"):
        page.route("**/notes/", lambda route: route.abort())
        box.press_sequentially("the connection drops")
        expect(status).to_contain_text("Not saved: the server could not be reached")
        page.unroute("**/notes/")

    too_often = '<span class="error">Not saved: your notes were saved more often…</span>'
    with writer.expecting_console_error("status of 429"):
        page.route("**/notes/", lambda route: route.fulfill(status=429, body=too_often))
        box.press_sequentially(", then too many saves")
        expect(status).to_contain_text("Not saved: your notes were saved more often")
        page.unroute("**/notes/")

    # (A 403 or a 500 would do the same, but in development django-htmx shows those as a page.)
    with writer.expecting_console_error("status of 502|Error Code 502"):
        page.route(
            "**/notes/", lambda route: route.fulfill(status=502, body="<h1>Bad Gateway</h1>")
        )
        box.press_sequentially(", then a proxy's error")
        expect(status).to_contain_text("Not saved: the server answered with an error")
        assert "Bad Gateway" not in page.content()
        page.unroute("**/notes/")

    expect(box).to_have_value("the connection drops, then too many saves, then a proxy's error")
    box.press_sequentially(".")
    expect(status).to_contain_text("Saved at")
    page.reload()
    expect(box).to_have_value("the connection drops, then too many saves, then a proxy's error.")
    writer.assert_no_console_errors()
