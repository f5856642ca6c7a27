"""The staff's second factor and closing an account, in a real browser: each page (setting up
the app, the recovery codes, asking for a code, the confirmation before closing) has no serious
or critical fault that axe-core finds, and on a phone no sideways scrolling."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .a11y import assert_no_axe_violations
from .site import PASSWORD, TIMEOUT, Visitor, make_staff, screenshot, set_up_second_factor

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}


def fits_a_phone(page: Page) -> None:
    page.set_viewport_size(PHONE)
    wide = page.evaluate(
        """(width) => [document.documentElement.scrollWidth,
            ...Array.from(document.querySelectorAll("body *"))
            .filter((el) => el.getBoundingClientRect().right > width + 1)
            .map((el) => el.tagName.toLowerCase() + "." + [...el.classList].join("."))
            .slice(0, 4)]""",
        PHONE["width"],
    )
    assert wide[0] <= PHONE["width"], f"{wide[0]}px wide, because of {wide[1:]}"
    assert_no_axe_violations(page)
    page.set_viewport_size({"width": 1280, "height": 900})


def test_a_staff_member_sets_up_the_app_then_logs_in_with_a_recovery_code(
    site, browser, screenshots
):
    rita = Visitor.sign_up(browser, site.url, "rita", "second-factor")
    try:
        make_staff(site, rita)
        page = rita.page
        page.goto("/admin/")
        expect(page).to_have_url(re.compile(r"/accounts/second-factor/\?next="))
        assert_no_axe_violations(page)
        fits_a_phone(page)
        screenshot(page, screenshots, "second-factor", "setup")
        codes = set_up_second_factor(page)
        assert len(codes) == 10
        assert_no_axe_violations(page)
        fits_a_phone(page)
        page.get_by_role("link", name="I have kept them: continue").click()
        expect(page).to_have_url(re.compile(r"/admin/$"))

        again = browser.new_context(base_url=site.url)
        again.set_default_timeout(TIMEOUT)
        later = again.new_page()
        later.goto("/accounts/login/?next=/admin/")
        later.fill("#id_username", rita.name)
        later.fill("#id_password", PASSWORD)
        later.get_by_role("button", name="Log in").click()
        expect(later.get_by_role("heading", name="Second factor")).to_be_visible()
        assert_no_axe_violations(later)
        fits_a_phone(later)
        later.get_by_role("textbox", name="Code").fill("000000")
        later.get_by_role("button", name="Verify").click()
        expect(later.locator(".errorlist")).to_contain_text("This code is wrong")
        assert_no_axe_violations(later)
        later.wait_for_timeout(1100)  # after a wrong code, the next is read a second later
        later.get_by_role("textbox", name="Code").fill(codes[0])
        later.get_by_role("button", name="Verify").click()
        expect(later).to_have_url(re.compile(r"/admin/$"))
        again.close()
        rita.assert_no_console_errors()
    finally:
        rita.close()


def test_the_page_before_closing_an_account_reads_well_and_fits_a_phone(site, browser, screenshots):
    zed = Visitor.sign_up(browser, site.url, "zed", "close-account")
    try:
        page = zed.page
        page.goto("/settings/")
        page.get_by_role("link", name="Close my account").click()
        expect(page.get_by_role("heading", name="Close my account")).to_be_visible()
        assert_no_axe_violations(page)
        fits_a_phone(page)
        screenshot(page, screenshots, "close-account", "confirmation")
        page.get_by_label("Your password").fill("not it")
        with zed.expecting_console_error("status of 400"):  # a form sent back with its error
            page.get_by_role("button", name="Close my account for good").click()
            expect(page.locator(".errorlist")).to_contain_text("This is not your password")
        assert_no_axe_violations(page)
        page.get_by_label("Your password").fill(PASSWORD)
        page.get_by_role("button", name="Close my account for good").click()
        expect(page.get_by_text("Your account is closed.")).to_be_visible()
        zed.assert_no_console_errors()
    finally:
        zed.close()
