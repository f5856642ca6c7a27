"""The replay in the browser: the arrow keys step back and forth, Home and End jump, and the
address names the step so that a position can be shared."""

from __future__ import annotations

import random
import re

import pytest
from playwright.sync_api import expect

from .site import Table, arrived, open_game, screenshot, seq_of

pytestmark = pytest.mark.browser


def played_game(site, visitors, seed: int, actions: int) -> tuple[int, int]:
    """A game of Basilica some ``actions`` in: its id and its last step."""
    alice, bob = visitors("alice"), visitors("bob")
    game_id = open_game(site, alice, bob, "2022", seed)
    arrived(alice.page)
    arrived(bob.page)
    table = Table([alice.page, bob.page], [], random.Random(seed))
    table.play(until=lambda: seq_of(alice.page) >= actions)
    return game_id, seq_of(alice.page)


def test_a_spectator_steps_through_a_game_with_the_arrow_keys(site, visitors, screenshots):
    game_id, last = played_game(site, visitors, seed=5, actions=8)

    page = visitors("carl").page
    page.goto(f"/games/{game_id}/replay/")
    counter = page.locator(".step-count")
    expect(counter).to_have_text(f"Step {last} of {last}")
    page.keyboard.press("ArrowLeft")
    expect(counter).to_have_text(f"Step {last - 1} of {last}")
    expect(page).to_have_url(re.compile(rf"step={last - 1}$"))
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    expect(counter).to_have_text(f"Step {last - 3} of {last}")
    expect(page.locator('.steps li[aria-current="step"]')).to_have_count(1)
    page.keyboard.press("Home")
    expect(counter).to_have_text(f"Step 0 of {last}")
    assert page.locator("#board .cell .letters").count() == 0  # nothing built yet
    page.keyboard.press("ArrowRight")
    expect(counter).to_have_text(f"Step 1 of {last}")
    screenshot(page, screenshots, "replay", "01-step-1")
    page.keyboard.press("End")
    expect(counter).to_have_text(f"Step {last} of {last}")

    # The address names the step: opened again, it shows the same position.
    page.goto(f"/games/{game_id}/replay/?step=2")
    expect(counter).to_have_text(f"Step 2 of {last}")
    screenshot(page, screenshots, "replay", "02-shared-step-2")


SIZES = {"phone": (390, 844), "laptop": (1280, 800)}


@pytest.mark.parametrize("size", SIZES)
def test_stepping_keeps_the_window_where_it_is(site, visitors, screenshots, size):
    game_id, last = played_game(site, visitors, seed=6, actions=12)
    page = visitors("carl").page
    width, height = SIZES[size]
    page.set_viewport_size({"width": width, "height": height})
    page.goto(f"/games/{game_id}/replay/?step=2")
    counter = page.locator(".step-count")
    forward = page.get_by_role("link", name="One step forward")
    forward.scroll_into_view_if_needed()
    before = page.evaluate("window.scrollY")
    # A tap on the button, then the arrow key twice: the board and the button stay in sight.
    forward.click()
    expect(counter).to_have_text(f"Step 3 of {last}")
    page.keyboard.press("ArrowRight")
    expect(counter).to_have_text(f"Step 4 of {last}")
    page.keyboard.press("ArrowRight")
    expect(counter).to_have_text(f"Step 5 of {last}")
    assert page.evaluate("window.scrollY") == before
    expect(page.locator("#replay .replay-board")).to_be_in_viewport()
    expect(forward).to_be_in_viewport()
    # The list of steps follows inside its own box: the current step is shown there.
    inside = page.evaluate(
        """() => {
          const list = document.querySelector("#replay .steps").getBoundingClientRect();
          const step = document.querySelector('#replay .steps [aria-current="step"]')
            .getBoundingClientRect();
          return step.top >= list.top - 1 && step.bottom <= list.bottom + 1;
        }"""
    )
    assert inside, "the current step is outside the visible part of the list of steps"
    screenshot(page, screenshots, "replay", f"03-stepped-{width}px")
