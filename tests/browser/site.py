"""Visitors of the site in Chromium, and a table that plays a game by clicking what pages offer."""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from playwright.sync_api import Browser, BrowserContext, ConsoleMessage, Page, expect

from .policy import Option, choose

PASSWORD = "cathedral-of-tiles-42"
TIMEOUT = 10_000  # ms: a push or a swap that takes longer than this is a failure
POLL = 20  # ms; a timer, not animation frames, which a tab in the background does not get

# Console errors that are not the game page's doing. Chromium asks for /favicon.ico by itself and
# logs the 404: base.html links no icon (reported; remove this once it does).
KNOWN_CONSOLE_ERRORS: tuple[re.Pattern, ...] = ()

# Runs in every page before its own scripts. It counts the websocket pushes the page has
# swapped in (and the newest seq among them), and lets a test drop the socket the way a lost
# network does (htmx's ws extension reconnects after an abnormal closure, code 1006).
PAGE_PROBE = """
(() => {
  const Native = window.WebSocket;
  const sockets = [];
  window.WebSocket = class extends Native {
    constructor(...args) { super(...args); sockets.push(this); }
  };
  window.__pushes = 0;
  window.__pushedSeq = -1;
  document.addEventListener("htmx:wsAfterMessage", (event) => {
    const text = String(event.detail.message);
    const match = /data-seq="(\\d+)"/.exec(text) || /"seq": ?(\\d+)/.exec(text);
    window.__pushes += 1;
    if (match) window.__pushedSeq = Math.max(window.__pushedSeq, parseInt(match[1], 10));
  });
  window.__dropSocket = () => {
    // Cut the socket without telling htmx yet, as a network that silently went away.
    const socket = sockets[sockets.length - 1];
    window.__dropped = { socket, onclose: socket.onclose };
    socket.onclose = null;
    socket.close();
  };
  window.__noticeDrop = () => {
    // The browser notices the lost connection: htmx gets the abnormal closure and reconnects.
    const { socket, onclose } = window.__dropped;
    onclose.call(socket, new CloseEvent("close", { code: 1006, wasClean: false }));
  };
})();
"""

CLICKABLES = """
() => Array.from(document.querySelectorAll(
  "#play .tile.choosable, #play .cell.target, #play .prompt .choice"
)).map((el) => ({
  kind: el.matches(".tile") ? "tile" : el.matches(".cell") ? "cell" : "choice",
  key: el.dataset.tile ?? el.dataset.cell ?? el.dataset.token,
  order: el.querySelector(".order-name")?.textContent.trim() ?? "",
  paid: !!el.querySelector(".coin"),
  crowned: el.matches(".vault") && !!el.querySelector(".crown"),
  posts: el.tagName === "BUTTON",
}))
"""

SYNCED = """
(seq) => window.__sameDocument === 1
  && document.querySelector("#status")?.dataset.seq === String(seq)
  && window.__pushedSeq >= seq
"""


@dataclass
class Visitor:
    """A signed-up person with a browser context of their own (their cookies, their tabs)."""

    name: str
    context: BrowserContext
    page: Page
    errors: list[str] = field(default_factory=list)
    expected: list[re.Pattern] = field(default_factory=list)

    @classmethod
    def sign_up(
        cls,
        browser: Browser,
        base_url: str,
        role: str,
        test: str,
        viewport: dict | None = None,
        touch: bool = False,
    ) -> Visitor:
        """A new account, in a browser of ``viewport`` size (a phone's with ``touch``)."""
        context = browser.new_context(
            base_url=base_url,
            viewport=viewport or {"width": 1280, "height": 900},
            has_touch=touch,
            is_mobile=touch,
        )
        context.set_default_timeout(TIMEOUT)
        context.add_init_script(PAGE_PROBE)
        name = f"{role}-{uuid.uuid4().hex[:6]}"
        visitor = cls(name, context, context.new_page())
        visitor.watch(visitor.page)
        page = visitor.page
        page.goto("/accounts/signup/")
        page.fill("#id_username", name)
        page.fill("#id_email", f"{name}@example.org")
        page.fill("#id_password1", PASSWORD)
        page.fill("#id_password2", PASSWORD)
        page.get_by_role("button", name="Sign up").click()
        expect(page).to_have_url(re.compile(r"/games/$"))
        return visitor

    def watch(self, page: Page) -> None:
        page.on("console", self._console)
        page.on("pageerror", lambda error: self.errors.append(f"page error: {error}"))

    def _console(self, message: ConsoleMessage) -> None:
        if message.type != "error":
            return
        text = f"console error on {message.location.get('url', '?')}: {message.text}"
        if any(p.search(text) for p in KNOWN_CONSOLE_ERRORS):
            return
        if not any(p.search(message.text) for p in self.expected):
            self.errors.append(text)

    @contextmanager
    def expecting_console_error(self, pattern: str) -> Iterator[None]:
        """Within the block, a console error matching ``pattern`` is part of the story."""
        compiled = re.compile(pattern)
        self.expected.append(compiled)
        try:
            yield
        finally:
            self.expected.remove(compiled)

    def new_tab(self) -> Page:
        page = self.context.new_page()
        self.watch(page)
        return page

    def assert_no_console_errors(self) -> None:
        assert not self.errors, f"{self.name}: " + "\n".join(self.errors)

    def close(self) -> None:
        self.context.close()


def open_game(
    site, creator: Visitor, joiner: Visitor, edition: str, seed: int, kind: str = "basilica"
) -> int:
    """``creator`` opens a seek in the lobby (taking the first role: Basilica's first move,
    Cathedral's Light), ``joiner`` accepts it; both end up on the game page. The deal is fixed
    by ``seed``."""
    page = creator.page
    page.goto("/games/")
    form = page.locator(f"#new-{kind}")
    if not form.evaluate("el => el.open"):
        form.locator("summary").click()
    if kind == "basilica":
        form.locator("select[name=basilica-edition]").select_option(edition)
    form.locator(f"select[name={kind}-first]").select_option("me")
    form.get_by_role("button", name=re.compile("^Open a game of")).click()
    expect(page).to_have_url(re.compile(r"/games/\d+/$"))
    game_id = int(re.search(r"/games/(\d+)/$", page.url).group(1))
    site.fix_deal(game_id, seed)

    joiner.page.goto("/games/")
    seek = joiner.page.locator("#seeks li", has_text=creator.name)
    seek.get_by_role("button", name="Accept").click()
    expect(joiner.page).to_have_url(re.compile(rf"/games/{game_id}/$"))
    # The creator's waiting page hears it from its socket and opens the board by itself.
    expect(page.locator("#game")).to_be_attached(timeout=TIMEOUT)
    return game_id


def watch_game(page: Page, game_id: int) -> None:
    page.goto(f"/games/{game_id}/")
    arrived(page)


def arrived(page: Page) -> None:
    """Wait for a freshly loaded game page to be live, and mark its document: a reload would
    lose the mark, so every later sync also proves that the page was never reloaded."""
    expect(page.locator("#connection")).to_have_attribute("data-state", "open")
    page.evaluate("window.__sameDocument = 1")


def close_scoring(page: Page) -> None:
    """A scoring shows itself over the page; the player reads it and closes it."""
    overlay = page.locator("#scoring-overlay[open]")
    if overlay.count():
        overlay.locator(".close").click()
        expect(overlay).to_have_count(0)


def seq_of(page: Page) -> int:
    return int(page.locator("#status").get_attribute("data-seq"))


def log_text(page: Page) -> str:
    return page.locator("#log .turns").inner_text()


@dataclass
class Table:
    """The pages watching one game: the two players' and any spectators'."""

    players: list[Page]
    spectators: list[Page]
    rng: object
    clicks: int = 0
    offline: set = field(default_factory=set)  # pages that cannot receive pushes just now
    # Every decision as the decider's page put it: (seq, player index, prompt, their turn line).
    decisions: list[tuple[int, int, str, str]] = field(default_factory=list)
    # Called with the deciding page before each click: where a test takes its screenshots.
    before_click: Callable[[Page], None] = lambda page: None

    @property
    def pages(self) -> list[Page]:
        return self.players + self.spectators

    def decider(self) -> Page | None:
        deciding = [p for p in self.players if p.locator(".prompt").count()]
        assert len(deciding) <= 1, "both players were offered a decision at once"
        return deciding[0] if deciding else None

    def options(self, page: Page) -> list[Option]:
        return [Option(**o) for o in page.evaluate(CLICKABLES)]

    def click(self, page: Page, option: Option) -> None:
        """Click ``option`` and wait for its swap; a completed action is checked everywhere."""
        before = seq_of(page)
        close_scoring(page)
        page.evaluate("document.getElementById('play').dataset.stale = '1'")
        page.locator(option.selector).click()
        page.wait_for_function(
            "() => document.getElementById('play')?.dataset.stale !== '1'", polling=POLL
        )
        self.clicks += 1
        assert not page.locator("#status .error").count(), page.locator(
            "#status .error"
        ).inner_text()
        if option.posts:
            assert seq_of(page) == before + 1
            self.sync(before + 1)
        else:
            assert seq_of(page) == before

    def sync(self, seq: int) -> None:
        """Every page that is online shows ``seq``, pushed to it, without a reload."""
        for page in self.pages:
            if page not in self.offline:
                page.wait_for_function(SYNCED, arg=seq, polling=POLL)

    def step(self) -> tuple[Page, Option] | None:
        """One click by whoever must decide; None once the game is over."""
        page = self.decider()
        if page is None:
            assert all(p.locator(".result").count() for p in self.pages), "nobody can move"
            return None
        self.note_decision(page)
        self.before_click(page)
        option = choose(self.rng, self.options(page))
        self.click(page, option)
        return page, option

    def note_decision(self, page: Page) -> None:
        seq, who = seq_of(page), self.players.index(page)
        if self.decisions and self.decisions[-1][:2] == (seq, who):
            return
        prompt = page.locator(".prompt > p").first.inner_text()
        turns = " / ".join(page.locator("#status .turn").all_inner_texts())
        self.decisions.append((seq, who, prompt, turns))

    def prompts(self, start: str) -> list[tuple[int, int, str, str]]:
        return [d for d in self.decisions if d[2].startswith(start)]

    def play(self, until: Callable[[], bool] = lambda: False, limit: int = 1000) -> None:
        """Click until ``until()`` holds or the game is over."""
        for _ in range(limit):
            if until() or self.step() is None:
                return
        raise AssertionError(f"the game did not end within {limit} clicks")


def screenshot(page: Page, directory: Path, scenario: str, moment: str) -> Path:
    path = directory / f"{scenario}--{moment}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


# -- players of a game at a phone's or a laptop's size, and what they do with the mouse ---------

SIZES = {
    "phone": {"width": 390, "height": 844},
    "desktop": {"width": 1366, "height": 768},
}


def players(
    site, browser, request, size: str, kind: str, seed: int
) -> tuple[Visitor, Visitor, int]:
    """Two new players at ``size`` (a phone's with touch), in a game of ``kind`` dealt by
    ``seed``, the first moving first; both pages live. They close with the test."""
    touch = size == "phone"
    first, second = (
        Visitor.sign_up(browser, site.url, role, request.node.name, SIZES[size], touch)
        for role in ("first", "second")
    )
    request.addfinalizer(first.close)
    request.addfinalizer(second.close)
    game_id = open_game(site, first, second, "2022", seed, kind=kind)
    for visitor in (first, second):
        arrived(visitor.page)
    return first, second, game_id


def never_confirm(visitor: Visitor, game_id: int) -> None:
    """The player asks, in Settings, that a move be sent at its last click, then comes back to
    game ``game_id``."""
    page = visitor.page
    page.goto("/settings/")
    page.locator("input[name=confirm_moves][value=never]").check()
    page.locator("input[name=confirm_moves]").locator("xpath=ancestor::form").get_by_role(
        "button"
    ).click()
    expect(page.locator(".messages")).to_be_visible()
    page.goto(f"/games/{game_id}/")
    arrived(page)


def drag_to_the_board(page: Page, source: str) -> None:
    """Press on a tile with the mouse, carry it over the board and let go on the middle one of
    the cells the page highlights for it: one gesture for what two clicks do."""
    before = seq_of(page)
    box = page.locator(source).first.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] / 2 + 30, box["y"] + box["height"] / 2 + 10, steps=4)
    targets = page.locator("#board .cell.target")
    expect(targets.first).to_be_attached()
    cell = targets.nth(targets.count() // 2)
    to = cell.bounding_box()
    page.mouse.move(to["x"] + to["width"] / 2, to["y"] + to["height"] / 2, steps=8)
    page.mouse.up()
    page.wait_for_function(
        "(seq) => document.getElementById('status')?.dataset.seq === String(seq)",
        arg=before + 1,
        polling=POLL,
    )
    assert not page.locator("#status .error").count(), page.locator("#status .error").inner_text()


def make_staff(site, visitor: Visitor) -> None:
    """``visitor`` becomes a member of the staff, as an admin would make them in the admin."""
    import sqlite3

    with sqlite3.connect(site.database) as db:
        db.execute("UPDATE auth_user SET is_staff = 1 WHERE username = ?", (visitor.name,))


def code_of(secret: str) -> str:
    """The six digits an authenticator app shows now for ``secret`` (as a page writes it)."""
    from base64 import b32decode

    from django_otp.oath import TOTP

    return f"{TOTP(b32decode(secret.replace(' ', ''))).token():06d}"


def set_up_second_factor(page: Page) -> list[str]:
    """On the second factor's setup page: the app scans the secret, its code confirms it; the
    recovery codes the site then shows once."""
    expect(page.get_by_role("heading", name="Set up your second factor")).to_be_visible()
    secret = page.locator("[data-secret]").inner_text()
    page.get_by_role("textbox", name="Code").fill(code_of(secret))
    page.get_by_role("button", name="Confirm").click()
    expect(page.get_by_role("heading", name="Your recovery codes")).to_be_visible()
    return page.locator(".recovery-codes code").all_inner_texts()
