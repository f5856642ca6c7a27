"""A stored game replays on the engine version it was played on, or fails loudly."""

from __future__ import annotations

import pytest

from games.engine import KINDS, basilica, cathedral, engine_for, versions


def test_the_current_version_and_no_version_both_give_the_current_engine():
    assert engine_for("basilica") is basilica
    assert engine_for("basilica", basilica.VERSION) is basilica
    assert engine_for("cathedral", cathedral.VERSION) is cathedral


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_a_version_the_site_does_not_have_is_refused_by_name(kind):
    with pytest.raises(LookupError, match=r"version '0\.9' is not installed"):
        engine_for(kind, "0.9")


def test_an_unknown_kind_is_still_a_key_error():
    with pytest.raises(KeyError):
        engine_for("chess", "1")


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_version_1_starts_and_replays_games_that_carry_version_1(kind):
    earlier = engine_for(kind, "1")
    current = engine_for(kind)
    assert earlier.VERSION == "1"
    assert current.VERSION == "2"
    options = earlier.Options()
    state = earlier.new_game(options, 5)
    assert state.version == "1"
    assert current.new_game(options, 5).version == "2"
    # Every other function is the one engine's, which reads the version off the state.
    assert earlier.legal_actions is current.legal_actions
    action = earlier.legal_actions(state)[0]
    after = earlier.apply_action(state, action)
    assert after.version == "1"
    again = earlier.replay(options, 5, [h["action"] for h in after.history])
    assert again == after
    assert earlier.view(after, None)["rules_version"] == "1"


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_the_site_names_the_versions_it_plays(kind):
    assert versions(kind) == ["1", "2"]
    assert [engine_for(kind, version).VERSION for version in versions(kind)] == ["1", "2"]
