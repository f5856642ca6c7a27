"""A server process loads at start what its first request would otherwise load while its player
(and every move queued behind) waits: the first move after a start draws the opponent's board
without compiling a template."""

import json

import pytest
from django.template import engines
from django.template.base import Template

from basilica_site import runtime
from games.live import pushes
from games.play import states
from tests.site.factories import client_for, started_game, user_deciding

pytestmark = pytest.mark.django_db


@pytest.fixture
def compiled(monkeypatch):
    """The templates compiled from here on, by name, with the engine's cache emptied first: as
    in a process that has just started."""
    engine = engines["django"].engine
    for loader in engine.template_loaders:
        loader.reset()
    names: list[str] = []
    real = Template.compile_nodelist

    def counted(self):
        names.append(self.origin.template_name)
        return real(self)

    monkeypatch.setattr(Template, "compile_nodelist", counted)
    yield names
    for loader in engine.template_loaders:
        loader.reset()


def _a_legal_move(game) -> dict:
    return game.engine.legal_actions(states.load_state(game))[0].to_json()


def _first_move_and_push(game):
    mover = user_deciding(game)
    opponent = game.seat1 if mover == game.seat0 else game.seat0
    response = client_for(mover).post(
        f"/games/{game.pk}/act/",
        {"action": json.dumps(_a_legal_move(game)), "seq": game.seq},
        HTTP_HX_REQUEST="true",
        HTTP_HX_TARGET="live",
    )
    assert response.status_code == 200
    game.refresh_from_db()
    return pushes.render_push(game.pk, opponent, game.seat_of(opponent), "token")


@pytest.mark.parametrize("kind", ["basilica", "cathedral"])
def test_after_the_warm_up_a_first_move_and_its_push_compile_no_template(compiled, kind):
    game = started_game(kind=kind)
    runtime.warm_up()
    compiled.clear()
    push = _first_move_and_push(game)
    assert 'id="board"' in push
    assert compiled == []


def test_without_it_the_first_move_compiles_the_game_page(compiled):
    game = started_game()
    _first_move_and_push(game)
    assert "games/basilica/game.html" in compiled
