"""What a player sees of rules versions: which version a game is played by, the top of the stack
(the same in every version), the Altar's second altar and the order help as each version has
them, each version's Abbey, and what changed in version 2."""

from __future__ import annotations

import html
import json
import random
import re
from pathlib import Path

import pytest
from django.urls import reverse
from factories import (
    client_for,
    game_from_log,
    make_staff,
    make_user,
    staff_client_for,
    started_game,
)

from games.engine import basilica
from games.models import Game
from games.play import states

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def on_version(game: Game, version: str) -> Game:
    """The game as if it had been started before version 2 (or after): only its row changes."""
    Game.objects.filter(pk=game.pk).update(engine_version=version)
    game.refresh_from_db()
    states.forget_cached_states()
    return game


def page(game: Game, user=None) -> str:
    return client_for(user or game.seat0).get(game.get_absolute_url()).text


def version_named(text: str) -> str:
    return re.search(r'<span class="rules-version">([^<]+)</span>', text).group(1)


def stack_top_of(text: str) -> str:
    """The drawn top of the stack: its tile and caption, beside the market."""
    found = re.search(r'<div class="stack-top">(.*?)</p>\s*</div>', text, re.S)
    return found.group(1) if found else ""


def post_move(game: Game, action: dict) -> None:
    game.refresh_from_db()
    client = client_for(game.player(game.to_decide))
    form = {"action": json.dumps(action), "seq": game.seq}
    response = client.post(reverse("games:act", args=[game.pk]), form)
    assert response.status_code == 302, response.text[:500]


def press(game: Game, text: str, token: str) -> None:
    """The deciding player presses the page's button ``token`` and, where the page asks
    (a correspondence game), "Confirm this move"."""
    form = re.search(
        r'name="action" value="([^"]+)">.{0,200}?data-token="' + token + '"', text, re.S
    )
    if form is None:
        link = re.search(r'href="\?([^"]+)"[^>]*data-token="' + token + '"', text)
        assert link, f"no {token} button on the page"
        game.refresh_from_db()
        url = f"{game.get_absolute_url()}?{html.unescape(link.group(1))}"
        press(game, client_for(game.player(game.to_decide)).get(url).text, "confirm")
        return
    post_move(game, json.loads(html.unescape(form.group(1))))


# -- the version a game is played by ------------------------------------------------------------


@pytest.mark.parametrize("kind", ["basilica", "cathedral"])
def test_the_game_page_and_its_replay_name_the_rules_version(kind):
    game = started_game(kind=kind)
    assert version_named(page(game)) == "rules version 2"
    old = on_version(started_game(kind=kind), "1")
    assert version_named(page(old)) == "rules version 1"
    replay = client_for(old.seat0).get(reverse("games:replay", args=[old.pk])).text
    assert version_named(replay) == "rules version 1"


def test_the_text_record_names_the_rules_version():
    game = on_version(started_game(), "1")
    text = client_for(game.seat0).get(reverse("games:record-text", args=[game.pk])).text
    assert "Rules version: 1" in text


def test_the_admin_lists_and_reviews_each_games_rules_version():
    old = on_version(started_game(), "1")
    started_game()
    staff = staff_client_for(make_staff())
    listing = staff.get("/admin/games/game/").text
    assert "Engine version" in listing
    assert '<td class="field-engine_version">1</td>' in listing
    assert '<td class="field-engine_version">2</td>' in listing
    only_old = staff.get("/admin/games/game/?engine_version=1").text
    assert only_old.count('class="field-engine_version"') == 1
    review = staff.get(reverse("admin:games_game_review", args=[old.pk])).text
    assert "Rules version 1" in review


# -- the top of the stack -----------------------------------------------------------------------


@pytest.mark.parametrize("version", ["1", "2"])
def test_the_basilica_page_shows_the_top_of_the_stack_in_every_version(version):
    game = on_version(started_game(), version)
    state = states.load_state(game)
    top = state.tiles[state.stack[-1]].to_json()
    drawn = stack_top_of(page(game))
    assert f"Top of the stack ({len(state.stack)} tiles)" in drawn
    assert f'data-tile="{top["id"]}"' in drawn
    assert 'class="tile order"' in drawn  # drawn as an order face, not clickable
    assert "<form" not in drawn
    assert "<a " not in drawn
    chips = re.findall(r'<span class="chip c(\w)">', drawn)
    assert "".join(chips) == top["colors"]
    assert ("♔" in drawn) is top["crown"]
    assert ("¢" in drawn) is top["paid"]


def test_a_pushed_market_and_the_replay_show_the_top_of_the_stack_too():
    game = started_game()
    state = states.load_state(game)
    client = client_for(game.seat1)
    market = client.get(f"{game.get_absolute_url()}?partial=market", **HTMX).text
    assert f'data-tile="{state.stack[-1]}"' in stack_top_of(market)
    replay = client.get(reverse("games:replay", args=[game.pk]), {"step": 0}).text
    assert f'data-tile="{state.stack[-1]}"' in stack_top_of(replay)


def test_an_imported_record_of_version_1_is_replayed_by_it_with_the_top_of_the_stack():
    record = Path(__file__).parents[1] / "golden" / "basilica-2022-expansion.json"
    assert json.loads(record.read_text())["engine_version"] == "1"
    client = client_for(make_user())
    response = client.post(reverse("games:import"), {"text": record.read_text()})
    assert response.status_code == 302
    studied = Game.objects.get(imported=True)
    assert studied.engine_version == "1"
    replay = client.get(response["Location"], {"step": 1}).text
    assert version_named(replay) == "rules version 1"
    state = states.state_at(studied, 1)
    assert f'data-tile="{state.stack[-1]}"' in stack_top_of(replay)


def test_nothing_below_the_top_of_the_stack_changes_the_page(monkeypatch):
    game = started_game()
    real = states.load_state(game)
    below_shuffled = real.copy()
    below_shuffled.stack = real.stack[-2::-1] + real.stack[-1:]
    top_swapped = real.copy()
    top_swapped.stack = real.stack[:-2] + real.stack[:-3:-1]
    assert below_shuffled.stack != real.stack
    assert top_swapped.stack[-1] != real.stack[-1]

    def page_of(state) -> str:
        monkeypatch.setattr(states, "load_state", lambda _game: state)
        text = re.sub(r'(csrfmiddlewaretoken" value="|"X-CSRFToken": ")[^"]+', "", page(game))
        monkeypatch.undo()
        return text

    seen = page_of(real)
    assert page_of(below_shuffled) == seen
    assert page_of(top_swapped) != seen  # the comparison sees what a player may see


# -- the Altar's second altar -------------------------------------------------------------------


def _altar_owed() -> tuple[basilica.Options, int, list]:
    """A log, legal by both versions, that ends with an Altar order whose second altar is owed."""
    options = basilica.Options(expansion=True, first_player=0)
    for seed in range(300):
        rng = random.Random(seed)
        state, log = basilica.new_game(options, seed), []
        while not state.finished and len(log) < 120:
            legal = [a for a in basilica.legal_actions(state) if a.kind != "confuse"]
            altars = [a for a in legal if a.kind == "altar"]
            action = altars[0] if altars else rng.choice(legal)
            state = basilica.apply_action(state, action)
            log.append(action)
            if state.decision and state.decision["kind"] == "second_altar":
                return options, seed, log
            if action.kind == "altar":
                break
    raise AssertionError("no Altar order with a second altar owed")


def test_a_version_1_game_is_played_on_by_version_1_through_its_page():
    options, seed, log = _altar_owed()
    game = started_game(expansion=True)
    # Stored before version 2 came: its row says version 1 before anyone moves.
    Game.objects.filter(pk=game.pk).update(engine_version="1", options=options.to_json(), seed=seed)
    states.forget_cached_states()
    for action in log:
        post_move(game, action.to_json())
    game.refresh_from_db()
    decider = game.player(game.to_decide)
    text = page(game, decider)
    assert version_named(text) == "rules version 1"
    assert "Altar: place a second altar on a highlighted vault, or stop at one." in text
    assert "No second altar" in text

    press(game, text, "skip_altar")
    game.refresh_from_db()
    assert game.seq == len(log) + 1
    assert game.engine_version == "1"
    state = states.load_state(game)
    assert state.version == "1"
    assert state.history[-1]["action"]["type"] == "skip_altar"
    assert "No second altar" not in page(game, decider)
    # And on it goes, a move at a time, by the same rules.
    post_move(game, game.engine.legal_actions(state)[0].to_json())
    game.refresh_from_db()
    assert game.seq == len(log) + 2


def test_a_version_2_game_owes_the_second_altar():
    options, seed, log = _altar_owed()
    game = game_from_log(options, seed, log)
    text = page(game, game.player(game.to_decide))
    assert version_named(text) == "rules version 2"
    assert "Altar: place your second altar on a highlighted vault." in text
    assert "or stop at one" not in text
    assert "No second altar" not in text
    assert 'data-token="skip_altar"' not in text
    assert re.search(r'class="cell[^"]* target', text), "the vaults for it are highlighted"


# -- the order help of each version -------------------------------------------------------------


def _confuse_in_the_market() -> int:
    options = basilica.Options(first_player=0)
    for seed in range(200):
        state = basilica.new_game(options, seed)
        if any(state.tiles[t].order == "confuse" for t in state.market_orders if t is not None):
            return seed
    raise AssertionError("no deal with Confuse in the market")


@pytest.mark.parametrize(
    ("version", "words", "not_words"),
    [
        ("2", "before your own builder leaves", "once your own builder has left"),
        ("1", "once your own builder has left", "before your own builder leaves"),
    ],
)
def test_the_confuse_tile_tells_the_rule_of_the_games_version(version, words, not_words):
    game = on_version(started_game(seed=_confuse_in_the_market()), version)
    text = page(game)
    assert "Confuse" in text
    assert words in text
    assert not_words not in text


# -- Cathedral's buildings ----------------------------------------------------------------------


def squares(drawing: str, where: str = 'class="shape') -> list[str]:
    """The first shape drawn in ``drawing`` after ``where``, row by row: ``#`` a square of it,
    ``.`` none."""
    shape = drawing.split(where, 1)[1].split("</span></span></span>", 1)[0]
    rows = shape.split('<span class="srow">')[1:]
    return ["".join("#" if on else "." for on in re.findall(r'class="sq( on)?"', r)) for r in rows]


def outlined(drawing: str) -> list[str]:
    """The first shape drawn in ``drawing`` as an outline (a path round 10-unit squares), row by
    row: a square is in the shape when its centre is inside the outline."""
    path = re.search(r'<svg class="shape[^>]*><path d="M(\d+) (\d+)([HV\d]*)Z"', drawing)
    start = x, y = int(path[1]), int(path[2])
    walls = []  # the upright walls, as (x, top, bottom)
    for command, value in [*re.findall(r"([HV])(\d+)", path[3]), ("V", str(start[1]))]:
        if command == "H":
            x = int(value)
        else:
            walls.append((x, *sorted((y, int(value)))))
            y = int(value)
    width, height = max(w[0] for w in walls) // 10, max(w[2] for w in walls) // 10

    def inside(col: int, row: int) -> bool:
        cx, cy = col * 10 + 5, row * 10 + 5
        return sum(1 for wx, top, bottom in walls if wx > cx and top < cy < bottom) % 2 == 1

    return ["".join("#" if inside(c, r) else "." for c in range(width)) for r in range(height)]


def drawn_shape(text: str, hand: str, building: str) -> list[str]:
    """A building in the ``hand`` ("light" or "dark") of the game page, as it is drawn."""
    section = next(h for h in text.split('<div class="hand ') if h.startswith(f'{hand}"'))
    return outlined(section.split(f'data-tile="{building}"', 1)[1])


def test_a_cathedral_game_draws_the_abbeys_of_its_own_version():
    game = started_game(kind="cathedral")
    today = page(game)
    assert drawn_shape(today, "dark", "abbey") == ["##.", ".##"]  # the Z
    assert drawn_shape(today, "light", "abbey") == [".##", "##."]  # the S
    assert drawn_shape(today, "dark", "academy") == [".##", "##.", ".#."]  # the F
    assert drawn_shape(today, "light", "academy") == ["##.", ".##", ".#."]
    earlier = page(on_version(game, "1"))
    assert drawn_shape(earlier, "dark", "abbey") == [".##", "##."]  # version 1: the S
    assert drawn_shape(earlier, "light", "abbey") == ["##.", ".##"]
    assert drawn_shape(earlier, "dark", "academy") == [".##", "##.", ".#."]


def test_the_cathedral_rules_page_draws_version_2s_buildings():
    text = client_for(make_user()).get(reverse("rules-kind", args=["cathedral"])).text
    for name, dark, light in [
        ("Abbey", ["##.", ".##"], [".##", "##."]),
        ("Academy", [".##", "##.", ".#."], ["##.", ".##", ".#."]),
    ]:
        row = text.split(f"<tr><td>{name}", 1)[1].split("</tr>", 1)[0]
        assert squares(row, f'aria-label="{name} of Light"') == light
        assert squares(row, f'aria-label="{name} of Dark"') == dark


# -- what changed -------------------------------------------------------------------------------


def test_the_rules_pages_say_what_changed_in_version_2():
    client = client_for(make_user())
    basilica_rules = client.get(reverse("rules")).text
    changes = basilica_rules.split("What changed in rules version 2", 1)[1]
    assert "The second is not optional" in changes
    assert "before your own builder" in changes  # Confuse
    assert "order side" in changes  # the stack's top, ...
    assert "In every version" in changes  # ... seen in every game
    cathedral_rules = client.get(reverse("rules-kind", args=["cathedral"])).text
    changes = cathedral_rules.split("What changed in rules version 2", 1)[1]
    assert "one building may capture in two parts" in changes
    assert "Dark's Abbey is the Z" in changes
