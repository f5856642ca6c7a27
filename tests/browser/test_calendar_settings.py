"""Settings' "Deadlines in your calendar" in a real browser, on a phone: the feed is made with one
button, its address is there to copy, a calendar app can read it, and stopping it closes it."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .a11y import assert_accessible
from .site import SIZES, screenshot

pytestmark = pytest.mark.browser


def wider_than_the_phone(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth") - SIZES["phone"]["width"]


def test_a_player_makes_copies_and_stops_the_feed_on_a_phone(visitors, screenshots):
    ann = visitors("ann")
    page = ann.page
    page.set_viewport_size(SIZES["phone"])
    page.goto("/settings/#calendar")
    card = page.locator("#calendar")
    screenshot(page, screenshots, "calendar-settings", "01-no-feed-phone")
    card.screenshot(path=str(screenshots / "calendar-settings--01-card-phone.png"))

    card.get_by_role("button", name="Create my calendar feed").click()

    field = card.get_by_role("textbox", name="Your calendar's address")
    expect(field).to_have_value(re.compile(r"^http://[^/]+/calendar/[A-Za-z0-9_-]{43}\.ics$"))
    expect(card.get_by_role("button", name="Copy link")).to_be_visible()  # copy.js is there
    expect(card.get_by_role("link", name="this calendar link")).to_have_attribute(
        "href", re.compile(r"^webcal://")
    )
    screenshot(page, screenshots, "calendar-settings", "02-feed-phone")
    card.screenshot(path=str(screenshots / "calendar-settings--02-card-phone.png"))
    assert wider_than_the_phone(page) <= 0
    page.reload()  # the "ready" message is base.html's, checked elsewhere: the card alone here
    assert_accessible(page)
    address = field.input_value()
    answer = page.request.get(address)
    assert answer.status == 200
    assert answer.headers["content-type"] == "text/calendar; charset=utf-8"

    page.set_viewport_size(SIZES["desktop"])
    screenshot(page, screenshots, "calendar-settings", "03-feed-desktop")
    card.screenshot(path=str(screenshots / "calendar-settings--03-card-desktop.png"))
    card.get_by_role("button", name="Stop the feed").click()

    expect(card.get_by_role("button", name="Create my calendar feed")).to_be_visible()
    assert page.request.get(address).status == 404
