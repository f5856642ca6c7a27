"""The staff's page of the site's figures in a real browser, after a few moves: no serious or
critical fault that axe-core finds, and on a phone no sideways scrolling, its table open too."""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import expect

from .a11y import assert_no_axe_violations
from .site import (
    Table,
    arrived,
    make_staff,
    open_game,
    screenshot,
    seq_of,
    set_up_second_factor,
)

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}


def wider_than(page, width: int) -> list:
    """The page's width, and the first elements that reach past ``width``."""
    return page.evaluate(
        """(width) => [document.documentElement.scrollWidth,
            ...Array.from(document.querySelectorAll("body *"))
            .filter((el) => el.getBoundingClientRect().right > width + 1)
            .map((el) => el.tagName.toLowerCase() + "." + [...el.classList].join("."))
            .slice(0, 4)]""",
        width,
    )


def test_the_figures_page_is_read_by_axe_and_fits_a_phone(site, visitors, screenshots):
    alice, bob = visitors("alice"), visitors("bob")
    open_game(site, alice, bob, "2022", seed=31)
    arrived(alice.page)
    arrived(bob.page)
    Table([alice.page, bob.page], [], random.Random(31)).play(until=lambda: seq_of(alice.page) >= 4)
    make_staff(site, alice)

    page = alice.new_tab()
    page.goto("/admin/")  # the staff's second factor first
    set_up_second_factor(page)
    page.get_by_role("link", name="I have kept them: continue").click()
    page.get_by_role("link", name="Figures of the last 24 hours, and the task queues now").click()
    expect(page.get_by_role("img", name="Moves").first).to_be_visible()
    assert_no_axe_violations(page)
    screenshot(page, screenshots, "staff-figures", "laptop")

    page.set_viewport_size(PHONE)
    page.get_by_text("Every hour's figures").click()
    expect(page.get_by_role("table", name="The last 24 hours, hour by hour")).to_be_visible()
    wide = wider_than(page, PHONE["width"])
    assert wide[0] <= PHONE["width"], f"{wide[0]}px wide, because of {wide[1:]}"
    assert_no_axe_violations(page)
    screenshot(page, screenshots, "staff-figures", "phone")
