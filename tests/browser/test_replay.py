"""The replay in the browser: the arrow keys step back and forth, Home and End jump, and the
address names the step so that a position can be shared."""

from __future__ import annotations

import random
import re

import pytest
from playwright.sync_api import expect

from .site import Table, arrived, open_game, screenshot, seq_of

pytestmark = pytest.mark.browser


def test_a_spectator_steps_through_a_game_with_the_arrow_keys(site, visitors, screenshots):
    alice, bob = visitors("alice"), visitors("bob")
    game_id = open_game(site, alice, bob, "2022", 5)
    arrived(alice.page)
    arrived(bob.page)
    table = Table([alice.page, bob.page], [], random.Random(5))
    table.play(until=lambda: seq_of(alice.page) >= 8)
    last = seq_of(alice.page)

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
