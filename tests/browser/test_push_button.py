"""Settings' "Notifications in this browser": the browser asks for permission only when the
player presses the button, never on load; without JavaScript the section says what is needed.

Headless Chromium has no push service to subscribe to, so the browser's permission prompt is
stood in for by a counter (the player then refuses): what is checked is when the page asks."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .a11y import assert_accessible
from .site import screenshot

pytestmark = pytest.mark.browser

PERMISSION_PROBE = """
window.__asked = 0;
if (window.Notification) {
  let answer = "default";
  Object.defineProperty(Notification, "permission", { get: () => answer, configurable: true });
  Notification.requestPermission = () => {
    window.__asked += 1;
    answer = "denied";
    return Promise.resolve(answer);
  };
}
"""


def test_the_page_asks_for_permission_only_when_the_button_is_pressed(visitors, screenshots):
    ann = visitors("ann")
    ann.context.add_init_script(PERMISSION_PROBE)
    page = ann.page
    page.goto("/settings/")
    section = page.locator("#push-devices")
    button = section.get_by_role("button", name="Notify me in this browser")
    expect(button).to_be_visible()
    expect(section.get_by_text("Turning them on needs JavaScript.")).to_be_hidden()
    expect(section.get_by_text("No browser yet.")).to_be_visible()
    page.wait_for_timeout(500)  # time enough for anything the page would do on load
    assert page.evaluate("window.__asked") == 0
    screenshot(page, screenshots, "push-button", "01-settings")
    assert_accessible(page)

    button.click()
    expect(section.get_by_text("blocked in this browser's settings")).to_be_visible()
    assert page.evaluate("window.__asked") == 1
    expect(button).to_be_hidden()
    assert page.evaluate("navigator.serviceWorker.getRegistrations()") == []  # refused: none


def test_without_javascript_the_section_says_so(site, browser, visitors):
    ann = visitors("ann")
    cookies = ann.context.cookies()
    context = browser.new_context(base_url=site.url, java_script_enabled=False)
    try:
        context.add_cookies(cookies)
        page = context.new_page()
        page.goto("/settings/")
        section = page.locator("#push-devices")
        expect(section.get_by_text("Turning them on needs JavaScript.")).to_be_visible()
        expect(section.get_by_role("button", name="Notify me in this browser")).to_be_hidden()
    finally:
        context.close()
