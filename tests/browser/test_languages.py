"""The site in French and in Polish, in a browser: a visitor whose browser asks for French reads
French; a player who picks Polish in the footer reads the game in Polish from then on, on a phone
too, where the longer words must still fit the width of the screen; a player signs up in their
browser's time zone."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .a11y import assert_no_axe_violations
from .site import SIZES, arrived, players, screenshot

pytestmark = pytest.mark.browser


def choose_language(page: Page, code: str) -> None:
    """The footer's switcher: pick a language and press its button; the same page comes back."""
    address = page.url
    page.locator("#language-choice").select_option(code)
    page.locator("footer.site form.languages button").click()
    expect(page.locator("html")).to_have_attribute("lang", code)
    assert page.url == address


def test_a_visitor_whose_browser_asks_for_french_reads_french(site, browser):
    context = browser.new_context(base_url=site.url, locale="fr-FR")
    try:
        page = context.new_page()
        page.goto("/")
        expect(page.locator("html")).to_have_attribute("lang", "fr")
        expect(page.locator("header.site")).to_contain_text("Règles")
        expect(page.locator("#language-choice")).to_have_value("fr")
    finally:
        context.close()


@pytest.mark.parametrize(("kind", "seed"), [("basilica", 24), ("cathedral", 5)])
@pytest.mark.parametrize("code", ["pl", "fr"])
def test_a_game_in_the_players_language_fits_a_phone(
    site, browser, request, screenshots, kind, seed, code
):
    first, second, game_id = players(site, browser, request, "phone", kind, seed=seed)
    page = first.page
    choose_language(page, code)
    arrived(page)
    assert page.url.endswith(f"/games/{game_id}/")  # the same address in every language
    screenshot(page, screenshots, f"language-{code}-{kind}-phone", "game")
    assert page.evaluate("document.documentElement.scrollWidth") <= SIZES["phone"]["width"]
    assert_no_axe_violations(page)
    # The choice is the account's: the opponent's page stays English, and the player's next
    # page, and a new tab, are in their language.
    expect(second.page.locator("html")).to_have_attribute("lang", "en")
    page.goto("/games/")
    expect(page.locator("html")).to_have_attribute("lang", code)
    assert page.evaluate("document.documentElement.scrollWidth") <= SIZES["phone"]["width"]
    screenshot(page, screenshots, f"language-{code}-{kind}-phone", "lobby")
    for visitor in (first, second):
        visitor.assert_no_console_errors()


def test_a_new_player_gets_their_browsers_time_zone(site, browser):
    context = browser.new_context(base_url=site.url, timezone_id="Europe/Warsaw")
    try:
        page = context.new_page()
        page.goto("/accounts/signup/")
        name = "zone-" + re.sub(r"\W", "", str(id(page)))[-6:]
        page.fill("#id_username", name)
        page.fill("#id_email", f"{name}@example.org")
        page.fill("#id_password1", "cathedral-of-tiles-42")
        page.fill("#id_password2", "cathedral-of-tiles-42")
        page.get_by_role("button", name="Sign up").click()
        expect(page).to_have_url(re.compile(r"/games/$"))
        page.goto("/settings/")
        expect(page.locator("#id_time_zone")).to_have_value("Europe/Warsaw")
    finally:
        context.close()
