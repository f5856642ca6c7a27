"""Pieces of the game page kept once drawn ({% fragment %}): the log's turns, the scorings and the
cathedral's rows without targets are drawn once, so a move costs the same late in a game as early;
a page drawn from them must be exactly the page drawn afresh."""

from __future__ import annotations

import random
import re
import sys

import pytest
from django.template import engines
from django.test import Client
from django.utils import translation
from django.utils.safestring import mark_safe
from factories import client_for, make_user, random_choice, started_game

from games.engine import basilica as engine
from games.kinds.basilica import presenters
from games.kinds.basilica.choices import Choosable
from games.models import PlayerSettings
from games.play import services, states
from games.settled import Settled
from games.templatetags import fragments
from games.web.presenters import clocks

pytestmark = pytest.mark.django_db

CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]*)"')
SEQS = re.compile(r'name="seq" value="(\d+)"|seq=(\d+)')


@pytest.fixture(autouse=True)
def no_kept_pieces():
    fragments.forget_fragments()
    yield
    fragments.forget_fragments()


def forget_all_kept() -> None:
    """The kept pieces, and the game's states, so that nothing kept of a state (its log as read
    and told, its city) serves a drawing afresh: it is made of new objects."""
    fragments.forget_fragments()
    states.forget_cached_states()


def live_region(client: Client, game, pick: str = "") -> tuple[str, set[str]]:
    """The region a move's answer swaps, as this client sees it after the clicks ``pick``,
    without its forms' CSRF tokens; and those tokens, masked afresh at every drawing of a form."""
    query = {"partial": "live", "pick": pick, "seq": game.seq}
    response = client.get(f"/games/{game.pk}/", query, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    html = response.content.decode()
    assert {a or b for a, b in SEQS.findall(html)} <= {str(game.seq)}  # every click is of now
    return CSRF.sub('name="csrfmiddlewaretoken"', html), set(CSRF.findall(html))


def test_every_viewer_sees_the_same_page_from_kept_pieces_as_drawn_afresh():
    alice, bob = make_user(), make_user()
    game = started_game(alice, bob, seed=7, expansion=True)
    # Alice's last click sends the move (a form), Bob's asks to confirm it first (a link).
    PlayerSettings.objects.create(user=alice, confirm_moves=PlayerSettings.Confirm.NEVER)
    players = {alice.pk: client_for(alice), bob.pk: client_for(bob)}
    watcher = Client()
    rng, scored = random.Random(7), False
    while game.seq < 120 and not states.load_state(game).finished:
        state = states.load_state(game)
        action = random_choice(rng, engine.legal_actions(state)).to_json()
        game = services.submit_action(game, game.player(state.to_decide), action, game.seq)
        state = states.load_state(game)
        if game.seq % 6 or state.finished:
            continue
        # The player deciding, with a vault picked (its cells are targets), and a spectator.
        vault = next((a for a in engine.legal_actions(state) if a.kind == "vault"), None)
        pick = f"tile:{vault.tile}" if vault else ""
        deciding = players[game.player(state.to_decide).pk]
        for client, clicks in ((deciding, pick), (deciding, ""), (watcher, "")):
            _, first_tokens = live_region(client, game, clicks)  # drawn, and its pieces kept
            kept, tokens = live_region(client, game, clicks)
            assert not tokens & first_tokens  # a form (the viewer's own) is never kept
            forget_all_kept()
            assert kept == live_region(client, game, clicks)[0]
        scored = scored or 'id="scoring-1"' in kept
    assert scored  # the game went through a scoring: entries lost their cells, Jesters showed


def test_a_game_of_cathedral_drawn_from_kept_pieces_is_the_page_drawn_afresh():
    # Its log is kept whole and by entry, its rows and hands by content: to the game's end.
    alice, bob = make_user(), make_user()
    game = started_game(alice, bob, seed=7, kind="cathedral")
    players = {alice.pk: client_for(alice), bob.pk: client_for(bob)}
    watcher = Client()
    rng, drawn = random.Random(7), 0
    while not states.load_state(game).finished:
        state = states.load_state(game)
        action = random_choice(rng, game.engine.legal_actions(state)).to_json()
        game = services.submit_action(game, game.player(state.to_decide), action, game.seq)
        if game.seq % 3 and not states.load_state(game).finished:
            continue
        for client in (*players.values(), watcher):
            live_region(client, game)  # drawn, and its pieces kept
            kept, _ = live_region(client, game)
            forget_all_kept()
            assert kept == live_region(client, game)[0]
            drawn += 1
    assert 'class="entries"' in kept
    assert kept.count("<li") > 20  # the log of a whole game
    assert drawn > 20


class Counter:
    def __init__(self):
        self.count = 0

    def __str__(self):
        self.count += 1
        return str(self.count)


def test_a_piece_is_drawn_once_for_each_value():
    template = engines["django"].from_string(
        "{% load fragments %}{% fragment entry %}{{ entry.text }} #{{ drawn }}{% endfragment %}"
    )
    drawn = Counter()
    first = template.render({"entry": {"text": "Alice took Disaster"}, "drawn": drawn})
    again = template.render({"entry": {"text": "Alice took Disaster"}, "drawn": drawn})
    other = template.render({"entry": {"text": "Bob took Altar"}, "drawn": drawn})
    assert first == again == "Alice took Disaster #1"
    assert other == "Bob took Altar #2"


def test_values_told_apart_by_what_they_show_are_drawn_apart():
    template = engines["django"].from_string(
        "{% load fragments %}{% fragment v %}{{ v.shown }}{% endfragment %}"
    )
    markup = "<b>Altar</b>"
    # Text a player typed is escaped; the same characters marked safe by the site are not.
    assert template.render({"v": {"shown": markup}}) == "&lt;b&gt;Altar&lt;/b&gt;"
    assert template.render({"v": {"shown": mark_safe(markup)}}) == markup
    assert template.render({"v": {"shown": 1}}) == "1"
    assert template.render({"v": {"shown": True}}) == "True"
    assert template.render({"v": {"shown": (1, 2)}}) == "(1, 2)"
    assert template.render({"v": {"shown": [1, 2]}}) == "[1, 2]"


def test_equal_values_are_one_piece_however_their_objects_are_made():
    name = "".join(["basilica", "-ann"])  # made at run time, unlike the interned literal
    shared = {"text": name}
    values = (
        [shared, shared],
        [{"text": "basilica-ann"}, {"text": sys.intern(name)}],
    )
    assert len({fragments.digest(value) for value in values}) == 1
    # A dataclass of plain fields (a market tile's Choosable) is known by its fields.
    tile = Choosable(choice=None, classes="tile vault cG", data=("tile", 30), label="G")
    same = Choosable(choice=None, classes="tile vault cG", data=("tile", 30), label="G")
    changed = Choosable(choice=None, classes="tile vault cG changed", data=("tile", 30), label="G")
    assert fragments.digest({"it": tile}) == fragments.digest({"it": same})
    assert fragments.digest({"it": tile}) != fragments.digest({"it": changed})


def test_a_settled_value_is_known_once_as_the_plain_dict_it_equals(monkeypatch):
    """A turn of the log, which never changes once told, is worked out once however many pages
    draw it, and draws the piece an equal plain dict draws."""
    turn = Settled(turn=3, who="basilica-ann", entries=[{"seq": 5, "text": "place R"}])
    plain = {"turn": 3, "who": "basilica-ann", "entries": [{"seq": 5, "text": "place R"}]}
    worked = []
    real = fragments._digest
    monkeypatch.setattr(fragments, "_digest", lambda value: worked.append(value) or real(value))
    assert fragments.digest(turn) == fragments.digest(turn) == fragments.digest(plain)
    assert worked == [plain, plain]  # the settled turn once, the plain dict once
    other = Settled(turn=4, who="basilica-ann", entries=[])
    assert fragments.digest(other) != fragments.digest(turn)
    # A log of settled turns is known by theirs: no turn worked out again.
    worked.clear()
    assert fragments.digest([other, turn]) == fragments.digest([other, turn])
    assert worked == []
    assert fragments.digest([other, turn]) != fragments.digest([turn, other])
    assert fragments.digest([turn]) != fragments.digest([other])


def test_kept_pieces_stay_within_their_bound(monkeypatch):
    monkeypatch.setattr(fragments, "KEPT_MAX_CHARS", 1000)
    template = engines["django"].from_string(
        "{% load fragments %}{% fragment n %}{{ n }}{{ padding }}{% endfragment %}"
    )
    for n in range(100):
        assert template.render({"n": n, "padding": "x" * 90}).startswith(str(n))
    assert sum(len(html) for html in fragments._kept.values()) <= 1000
    assert len(fragments._kept) >= 9  # the newest are kept, the oldest dropped


def test_one_cathedral_seen_from_two_last_looks_marks_what_changed_since_each():
    """Basilica's cathedral of a state is drawn once for the viewers who last looked at the same
    moment, and apart for one who last looked earlier: each sees marked what changed since."""
    game = started_game(make_user(), make_user(), seed=3)
    placed = []
    while len(placed) < 2:  # two vaults built, by two actions
        state = states.load_state(game)
        legal = engine.legal_actions(state)
        action = next((a for a in legal if a.kind == "vault"), legal[0])
        player = game.player(state.to_decide)
        game = services.submit_action(game, player, action.to_json(), game.seq)
        if action.kind == "vault":
            placed.append(game.seq)
    state = states.load_state(game)
    base = {"seat": None, "names": ["ann", "bob"], "clocks": clocks(game)}

    def marked(step: int) -> set[str]:
        rows = presenters.page_context(game, state, states.state_at(game, step), base, None)
        return {c["key"] for r in rows["rows"] for c in r["cells"] if "changed" in c["it"].classes}

    since_the_last_vault = marked(placed[1] - 1)
    since_the_first = marked(placed[0] - 1)
    assert since_the_last_vault
    assert since_the_last_vault < since_the_first
    assert marked(placed[1] - 1) == since_the_last_vault


def test_the_preview_of_one_state_is_read_in_each_viewers_language():
    game = started_game(make_user(), make_user(), seed=3)
    state = states.load_state(game)
    base = {"seat": None, "names": ["ann", "bob"], "clocks": clocks(game)}
    english = presenters.page_context(game, state, state, base, None)["preview"]
    with translation.override("fr"):
        french = presenters.page_context(game, state, state, base, None)["preview"]
        assert french["title"] == presenters.preview(engine.view(state, None))["title"]
    assert english["title"] != french["title"]


def market_of(html: str) -> str:
    return html[html.index('id="market"') : html.index("</section>", html.index('id="market"'))]


def test_a_market_and_cathedral_drawn_once_for_the_watchers_leave_the_deciders_choices():
    """The market and the cathedral with nothing to choose are drawn once per state for every
    viewer who sees them alike; the player choosing a tile after them still gets their own
    tiles to click, of this move, and the watchers' copy stays without any."""
    alice, bob = make_user(), make_user()
    game = started_game(alice, bob, seed=11)
    state = states.load_state(game)
    decider = game.player(state.to_decide)
    waiting = bob if decider == alice else alice
    assert any(a.kind == "vault" for a in engine.legal_actions(state))  # tiles to choose
    watcher_html, _ = live_region(Client(), game)
    waiting_html, _ = live_region(client_for(waiting), game)
    deciding_html, _ = live_region(client_for(decider), game)  # its clicks are of this seq
    assert " choosable" not in market_of(watcher_html)
    assert market_of(waiting_html) == market_of(watcher_html)
    assert market_of(deciding_html).count(" choosable") >= 3
    base = {"seat": None, "names": ["ann", "bob"], "clocks": clocks(game)}
    spectators = [presenters.page_context(game, state, state, base, None) for _ in range(2)]
    assert spectators[0]["settled_market"]
    assert spectators[0]["settled_rows"]
    assert spectators[0]["market"] is spectators[1]["market"]  # worked out once for the state
    assert spectators[0]["rows"] is spectators[1]["rows"]
    assert live_region(Client(), game)[0] == watcher_html
    forget_all_kept()
    assert live_region(Client(), game)[0] == watcher_html
