"""Accessibility checks of a page: axe-core's rules, and by hand names, tab order, keyboard reach
and colours in letters."""

from __future__ import annotations

import functools
from pathlib import Path

from playwright.sync_api import Page

# `make axe` (a prerequisite of `make test-browser`) installs it from npm at the pinned version.
AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
# What a person using a screen reader or a keyboard cannot get past; "minor" and "moderate" are
# advice, not failures.
BLOCKING = ("serious", "critical")

RUN_AXE = """
async (impacts) => {
  // axe's default rules, and one it still calls experimental: a control's spoken name must
  // contain the words it shows, which is what a person using voice control says to click it.
  const results = await window.axe.run(document, {
    resultTypes: ["violations"],
    rules: { "label-content-name-mismatch": { enabled: true } },
  });
  return results.violations
    .filter((v) => impacts.includes(v.impact))
    .map((v) => `${v.id} (${v.impact}, ${v.nodes.length}x): ${v.help}\\n    `
      + v.nodes.slice(0, 8).map((n) => n.target.join(" ")).join("\\n    "));
}
"""

# Problems anyone can see in the markup, without moving the focus.
MARKUP_PROBLEMS = """
() => {
  const problems = [];
  const brief = (el) => el.outerHTML.slice(0, 160);
  for (const el of document.querySelectorAll("[tabindex]")) {
    if (el.tabIndex > 0) problems.push("positive tabindex: " + brief(el));
  }
  for (const el of document.querySelectorAll("a[href], button")) {
    const labelled = (el.getAttribute("aria-labelledby") || "").split(/\\s+/)
      .map((id) => document.getElementById(id)?.textContent || "").join(" ");
    const name = [el.getAttribute("aria-label"), labelled, el.textContent, el.title]
      .map((text) => (text || "").trim()).find(Boolean);
    if (!name) problems.push("no accessible name: " + brief(el));
  }
  // A colour is never only a colour: every coloured cell or tile spells it in letters too.
  for (const el of document.querySelectorAll(".cell, .tile")) {
    if (![...el.classList].some((c) => /^c[YBRG]+$/.test(c))) continue;
    const letters = el.querySelector(".letters");
    if (!letters || !letters.textContent.trim()) problems.push("colour without letters: " + brief(el));
  }
  return problems;
}
"""

# Numbers every visible control so that the focus walk can tell which ones it reached.
NUMBER_CONTROLS = """
() => {
  const controls = [...document.querySelectorAll(
    "a[href], button, input:not([type=hidden]), select, textarea"
  )].filter((el) => !el.disabled && el.checkVisibility());  // not inside a closed <details>
  controls.forEach((el, i) => { el.dataset.a11y = String(i); });
  return controls.map((el) => el.matches(
    ".tile.choosable, .cell.target, .prompt .choice"
  ));
}
"""

# The focused control's number; "-" for something else focusable (a summary), null for none.
FOCUSED = """
() => {
  const el = document.activeElement;
  if (!el || el === document.body) return null;
  return el.dataset.a11y ?? "-";
}
"""


def markup_problems(page: Page) -> list[str]:
    return page.evaluate(MARKUP_PROBLEMS)


def unreachable_by_keyboard(page: Page) -> list[str]:
    """Tab from the top of the page through every control; name the controls never focused."""
    is_game_control = page.evaluate(NUMBER_CONTROLS)
    # Start the walk at the top of the page: the game keeps the focus on the board after a
    # click, and Tab goes on from wherever the focus last was.
    page.evaluate(
        """() => {
          const start = document.createElement("span");
          start.id = "a11y-walk-start";
          start.tabIndex = -1;
          document.body.prepend(start);
          start.focus();
        }"""
    )
    reached: list[str] = []
    for _ in range(len(is_game_control) + 20):
        page.keyboard.press("Tab")
        focused = page.evaluate(FOCUSED)
        if focused is None or (reached and focused == reached[0]):
            if reached:
                break
            continue
        if focused != "-":
            reached.append(focused)
    page.evaluate("() => document.getElementById('a11y-walk-start')?.remove()")
    missing = [str(i) for i in range(len(is_game_control)) if str(i) not in reached]
    assert any(is_game_control[int(i)] for i in reached) or not any(is_game_control), (
        "the focus never reached a game control"
    )
    return [
        page.locator(f'[data-a11y="{i}"]').evaluate("el => el.outerHTML.slice(0, 160)")
        for i in missing
    ]


@functools.cache
def _axe_source() -> str:
    return AXE.read_text() + "\n;undefined"


def axe_violations(page: Page) -> list[str]:
    """axe-core's serious and critical violations on the page as it is now, with their targets."""
    assert AXE.exists(), f"{AXE} is missing: `make axe` installs it from npm"
    if not page.evaluate("() => typeof window.axe === 'object'"):
        # Evaluated rather than added as a <script>: the site's Content-Security-Policy refuses
        # inline scripts, and rightly so; the debugging protocol's evaluation is not a page script.
        page.evaluate(_axe_source())
    return page.evaluate(RUN_AXE, list(BLOCKING))


def assert_no_axe_violations(page: Page) -> None:
    violations = axe_violations(page)
    assert not violations, f"axe on {page.url}:\n" + "\n".join(violations)


def assert_accessible(page: Page, keyboard: bool = False) -> None:
    problems = markup_problems(page) + [f"axe: {v}" for v in axe_violations(page)]
    if keyboard:
        problems += [f"not reachable by Tab: {html}" for html in unreachable_by_keyboard(page)]
    assert not problems, "\n".join(problems)
