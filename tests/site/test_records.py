"""Game records: a finished game downloaded as JSON replays to the very game that was played; a
running game's record keeps its secrets (the seed, a Jester's colour); the downloads follow the
game page's rule of who may see a game; a record changed by hand is refused."""

from __future__ import annotations

import copy
import json
import random

import pytest
from django.test import Client
from django.urls import reverse
from factories import (
    client_for,
    make_staff,
    make_user,
    open_game,
    play,
    play_randomly,
    random_choice,
    search_position,
    started_game,
    user_deciding,
)

from games import kinds
from games.archive import records
from games.engine import basilica
from games.models import Action, Game
from games.play import services, states

pytestmark = pytest.mark.django_db

SEED = 3_141_592_653_589_793_238  # long enough that no time or number in a record holds it
GAMES = {
    "basilica": {"kind": "basilica", "edition": "2022", "expansion": True},
    "cathedral": {"kind": "cathedral", "lehman": True},
}


def play_on(game: Game, moves: int = 10_000) -> Game:
    """Random legal moves through the service, by whoever must decide, until the game ends."""
    rng = random.Random(7)  # not the game's id: that differs between databases
    for _ in range(moves):
        state = states.load_state(game)
        if state.finished:
            break
        game = play(game, [random_choice(rng, game.engine.legal_actions(state)).to_json()])
    game.refresh_from_db()
    return game


def round_trip(game: Game) -> records.Record:
    return records.read(json.loads(json.dumps(records.export(game))))


def keys_of(data) -> set:
    if isinstance(data, dict):
        return set(data) | {k for value in data.values() for k in keys_of(value)}
    if isinstance(data, list):
        return {k for value in data for k in keys_of(value)}
    return set()


@pytest.mark.parametrize("options", GAMES.values(), ids=GAMES)
def test_a_finished_games_record_replays_to_the_game_that_was_played(options):
    game = play_on(started_game(seed=SEED, **options))
    assert game.status == Game.Status.FINISHED
    record = round_trip(game)
    replayed = records.replay(record)
    played = states.replay_game(game)
    engine = game.engine
    assert engine.view(replayed, None) == engine.view(played, None)
    assert replayed.returns() == played.returns()
    assert record.seed == SEED
    assert record.result == {
        "winners": game.winners,
        "scores": game.scores,
        "termination": game.termination,
    }
    assert record.players == (game.seat0.username, game.seat1.username)


def test_the_record_of_a_running_game_holds_no_seed_and_cannot_be_replayed():
    game = play_on(started_game(seed=SEED, **GAMES["basilica"]), moves=12)
    data = records.export(game)
    assert game.status == Game.Status.ACTIVE
    assert "seed" not in keys_of(data)
    assert str(SEED) not in json.dumps(data)
    assert "result" not in data
    assert len(data["actions"]) == 12
    with pytest.raises(records.RecordError, match="this record has no seed"):
        records.replay(records.read(data))


def test_the_record_of_a_running_cathedral_game_replays_as_it_stands():
    # Cathedral has no chance: a running game's record needs no seed to be replayed.
    game = play_on(started_game(seed=SEED, **GAMES["cathedral"]), moves=6)
    record = round_trip(game)
    assert record.seed is None
    state = records.replay(record)
    assert game.engine.view(state, None) == game.engine.view(states.load_state(game), None)


def test_a_jester_colour_not_yet_revealed_is_in_neither_record_of_a_running_game():
    options = basilica.Options(edition="2022")
    # A scoring with two Jesters to colour: the first colour stays hidden until the second.
    seed, actions = search_position(
        options,
        lambda s: s.decision is not None and s.decision["kind"] == "jester" and len(s.pending) > 1,
    )
    game = started_game(seed=seed, edition="2022")
    game = play(game, [a.to_json() for a in actions])
    colour = basilica.legal_actions(states.load_state(game))[0].to_json()
    game = play(game, [colour])
    exported = records.export(game)["actions"][-1]
    assert exported["action"] == {k: v for k, v in colour.items() if k != "color"}
    last = records.text_log(game).splitlines()[-1]
    assert last.endswith("(hidden until the scoring)"), last


def test_the_text_log_names_every_action_and_never_the_seed():
    game = play_on(started_game(seed=SEED, **GAMES["basilica"]))
    text = records.text_log(game)
    view = game.engine.view(states.load_state(game), None)
    log, names = view["log"], [game.seat0.username, game.seat1.username]
    assert f"Game {game.pk}: {game.seat0.username} vs {game.seat1.username}" in text
    assert "Basilica, 2022 edition, with Festum Fatuorum" in text
    for entry in log:
        name = game.player(entry["player"]).username
        assert f"\n{entry['seq']}. " in text
        # the game page's words for it
        said = kinds.get("basilica").describe_entry(entry, view, names)
        assert said.startswith(f"{name}: ")
        assert f" {said}\n" in text
    assert len(log) == game.seq
    assert str(SEED) not in text


def test_the_text_log_of_cathedral_tells_the_passes_too():
    game = play_on(started_game(make_user("ann"), seed=SEED, **GAMES["cathedral"]))
    text = records.text_log(game)
    view = game.engine.view(states.load_state(game), None)
    names = [game.seat0.username, game.seat1.username]
    for entry in view["log"]:
        said = entry["text"] if entry["kind"] == "pass" else None
        said = said or kinds.get("cathedral").describe_entry(entry, view, names)
        assert said in text
    assert "placed the Cathedral on" in text
    assert "Cathedral, Tom Lehman's variant" in text
    if len(game.winners) == 2:
        assert "Result: shared" in text
    else:
        assert f"Result: {game.player(game.winners[0]).username} wins" in text


# -- the downloads ----------------------------------------------------------------------------


def urls(game: Game) -> list[str]:
    return [reverse(f"games:record-{ext}", args=[game.pk]) for ext in ("json", "text")]


def test_a_player_downloads_the_record_of_their_private_game_as_an_attachment():
    alice = make_user("alice")
    game = started_game(alice, private=True)
    json_url, text_url = urls(game)
    response = client_for(alice).get(json_url)
    assert response.status_code == 200
    assert response["Content-Disposition"] == f'attachment; filename="game-{game.pk}.json"'
    assert response["Content-Type"].startswith("application/json")
    assert response.json()["kind"] == "basilica"
    text = client_for(alice).get(text_url, {"download": "1"})
    assert text.status_code == 200
    assert text["Content-Disposition"] == f'attachment; filename="game-{game.pk}.txt"'
    assert text["Content-Type"] == "text/plain; charset=utf-8"


def test_the_text_log_is_shown_in_the_browser_not_downloaded():
    alice = make_user("alice")
    game = started_game(alice)
    response = client_for(alice).get(urls(game)[1])
    assert response.status_code == 200
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert response["Content-Disposition"] == f'inline; filename="game-{game.pk}.txt"'
    assert response["X-Content-Type-Options"] == "nosniff"
    assert "alice" in response.text


def test_a_stranger_gets_no_record_of_a_private_game_but_the_staff_do():
    game = started_game(private=True)
    for client in (client_for(make_user("carol")), Client()):
        for url in urls(game):
            assert client.get(url).status_code == 404
    staff = client_for(make_staff())
    assert all(staff.get(url).status_code == 200 for url in urls(game))


def test_anyone_may_download_the_record_of_a_public_game_being_played():
    game = started_game(seed=SEED)
    response = Client().get(urls(game)[0])
    assert response.status_code == 200
    assert str(SEED) not in response.text


def test_a_game_waiting_for_an_opponent_or_cancelled_has_no_record():
    alice = make_user("alice")
    waiting = open_game(alice)
    cancelled = services.cancel_game(open_game(alice), alice)
    for game in (waiting, cancelled):
        assert all(client_for(alice).get(url).status_code == 404 for url in urls(game))


def test_a_record_is_only_downloaded():
    alice = make_user("alice")
    game = started_game(alice)
    assert client_for(alice).post(urls(game)[0]).status_code == 405


# -- records changed by hand --------------------------------------------------------------------


@pytest.fixture
def finished_record() -> dict:
    return records.export(play_on(started_game(seed=SEED, **GAMES["basilica"])))


def test_a_record_with_an_illegal_action_is_refused(finished_record):
    tampered = copy.deepcopy(finished_record)
    # The first vault again, later: it is no longer on offer.
    first_vault = next(a for a in tampered["actions"] if a["action"]["type"] == "vault")
    later = next(a for a in tampered["actions"][5:] if a["action"]["type"] == "vault")
    later["action"] = dict(first_vault["action"])
    with pytest.raises(records.RecordError, match="not a legal game"):
        records.replay(records.read(tampered))


def test_a_record_with_a_result_its_actions_do_not_give_is_refused(finished_record):
    tampered = copy.deepcopy(finished_record)
    tampered["result"]["scores"][0] += 1
    with pytest.raises(records.RecordError, match="result"):
        records.replay(records.read(tampered))
    tampered = copy.deepcopy(finished_record)
    tampered["result"]["winners"] = [1 - tampered["result"]["winners"][0]]
    with pytest.raises(records.RecordError, match="result"):
        records.replay(records.read(tampered))


def test_a_record_that_gives_an_action_to_the_wrong_player_is_refused(finished_record):
    tampered = copy.deepcopy(finished_record)
    tampered["actions"][3]["player"] = 1 - tampered["actions"][3]["player"]
    with pytest.raises(records.RecordError, match="action 4 is recorded for seat"):
        records.replay(records.read(tampered))


def test_the_record_of_a_resigned_game_replays_to_where_it_stopped():
    alice, bob = make_user("alice"), make_user("bob")
    game = play_on(started_game(alice, bob, seed=SEED, **GAMES["basilica"]), moves=9)
    game = services.resign(game, user_deciding(game))
    record = round_trip(game)
    assert record.result["termination"] == "resignation"
    state = records.replay(record)
    assert len(state.history) == 9
    assert not state.finished


# -- importing a record into the replay viewer --------------------------------------------------


def test_an_imported_record_replays_to_the_same_final_state_and_rates_nobody():
    game = play_randomly(started_game(seed=7), 400)
    assert game.status == Game.Status.FINISHED
    carl = make_user("carl")
    text = json.dumps(records.export(game))
    response = client_for(carl).post(reverse("games:import"), {"text": text})
    imported = Game.objects.get(imported=True)
    assert response.url == reverse("games:replay", args=[imported.pk])
    assert states.replay_game(imported) == states.replay_game(game)
    assert imported.seat0 is None
    assert imported.seat1 is None
    assert imported.names == [game.seat0.username, game.seat1.username]
    assert imported.winners == game.winners
    assert imported.scores == game.scores
    page = client_for(carl).get(response.url).text
    assert f"Step {game.seq} of {game.seq}" in page


def test_a_record_that_does_not_replay_is_refused_and_nothing_is_stored():
    game = play_randomly(started_game(seed=7), 400)
    data = records.export(game)
    data["result"]["scores"] = [999, 0]
    response = client_for(make_user("carl")).post(
        reverse("games:import"), {"text": json.dumps(data)}
    )
    assert response.status_code == 400
    assert "cannot be replayed" in response.text
    assert not Game.objects.filter(imported=True).exists()
    garbage = client_for(make_user("dora")).post(reverse("games:import"), {"text": "{not json"})
    assert garbage.status_code == 400


def test_a_record_with_a_nul_in_a_name_is_refused_naming_the_field_and_nothing_is_stored():
    # PostgreSQL refuses a NUL in text and in JSON: read, it would be a server error there.
    data = records.export(play_randomly(started_game(seed=7), 400))
    data["players"][1] += "\x00"
    before = Game.objects.count(), Action.objects.count()
    response = client_for(make_user("carl")).post(
        reverse("games:import"), {"text": json.dumps(data)}
    )
    assert response.status_code == 400
    assert "players[1] holds a control character" in response.text
    assert (Game.objects.count(), Action.objects.count()) == before


def test_a_record_whose_loser_on_time_is_named_winner_is_refused():
    alice, bob = make_user("alice"), make_user("bob")
    game = play_on(started_game(alice, bob, seed=SEED, time_control="10+5"), moves=9)
    data = records.export(services.resign(game, user_deciding(game)))
    loser = game.to_decide
    data["result"] |= {"termination": "timeout", "winners": [loser]}
    response = client_for(make_user("carl")).post(
        reverse("games:import"), {"text": json.dumps(data)}
    )
    assert response.status_code == 400
    assert "result.winners: " in response.text
    assert not Game.objects.filter(imported=True).exists()
    data["result"]["winners"] = [1 - loser]
    accepted = client_for(make_user("dora")).post(
        reverse("games:import"), {"text": json.dumps(data)}
    )
    assert accepted.status_code == 302
