"""A person is told from a bot by name, without a query: the bots' names bear a prefix that
nobody may sign up with (games.web.accounts). A name with the prefix still asks the database."""

from __future__ import annotations

import pytest
from factories import make_user, started_game

from games.models import Game
from games.play import computer

pytestmark = pytest.mark.django_db


def test_a_person_is_no_bot_and_nobody_asks_the_database(django_assert_num_queries):
    ann = make_user("ann")
    with django_assert_num_queries(0):
        assert computer.level_of(ann) is None


def test_a_bot_is_still_known_for_its_level():
    bot = computer.account("greedy").user
    assert computer.level_of(type(bot).objects.get(pk=bot.pk)) == "greedy"


def test_a_person_given_a_name_with_the_prefix_is_still_a_person():
    lookalike = make_user("computer-lookalike")  # the admin may name an account so
    assert computer.level_of(lookalike) is None


def test_two_people_in_a_casual_game_without_hints_are_offered_none_without_a_query(
    django_assert_num_queries,
):
    game = started_game(make_user("ann"), make_user("bob"), rated=False, hints=False)
    game = Game.objects.select_related("seat0", "seat1").get(pk=game.pk)
    with django_assert_num_queries(0):
        assert not game.allows_hints()


def test_a_game_against_the_computer_offers_hints():
    bot = computer.account("search").user
    game = started_game(make_user("ann"), bot)
    game = Game.objects.select_related("seat0", "seat1").get(pk=game.pk)
    assert game.allows_hints()
