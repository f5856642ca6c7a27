"""A game's chat, as its players and its watchers use it: two rooms apart, posted by a form
that works with and without JavaScript, limited, escaped, and never in a replay or a record."""

from __future__ import annotations

import itertools

import pytest
import time_machine
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.translation import pgettext

from games.community import chat
from games.models import ChatMessage, ChatOff, Game, PlayerSettings, Report
from games.play import services
from tests.site.factories import client_for, make_user, started_game

pytestmark = pytest.mark.django_db


def say(client, game, text="", room="players", quick="", htmx=False):
    form = {"room": room, "text": text}
    if quick:
        form["quick"] = quick
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    return client.post(reverse("games:chat", args=[game.pk]), form, **headers)


def page(client, game) -> str:
    return client.get(game.get_absolute_url()).content.decode()


@pytest.fixture
def table():
    """Ann and Bob at a public game, Carl watching it."""
    ann, bob, carl = make_user("ann"), make_user("bob"), make_user("carl")
    game = started_game(ann, bob)
    return game, client_for(ann), client_for(bob), client_for(carl)


def test_a_players_message_reaches_the_opponent_and_no_spectator(table):
    game, ann, bob, carl = table
    response = say(ann, game, "Nice opening, Bob")
    assert response.status_code == 302
    assert response["Location"].endswith("#chat")  # Post/Redirect/Get, back to the chat
    assert "Nice opening, Bob" in page(bob, game)
    assert "Nice opening, Bob" in page(ann, game)
    assert "Nice opening, Bob" not in page(carl, game)
    assert "Nice opening, Bob" not in page(Client(), game)


def test_spectators_talk_among_themselves_and_the_players_read_it_only_after_the_game(table):
    game, ann, bob, carl = table
    assert say(carl, game, "Bob is in trouble", room="spectators").status_code == 302
    assert "Bob is in trouble" in page(Client(), game)  # any visitor watching reads it
    assert "Bob is in trouble" not in page(bob, game)
    services.resign(game, game.seat1)
    assert "Bob is in trouble" in page(bob, game)
    assert "Bob is in trouble" in page(ann, game)


def test_a_player_cannot_write_in_the_spectators_room_nor_a_watcher_in_the_players(table):
    game, ann, _bob, carl = table
    assert say(carl, game, "psst", room="players").status_code == 403
    assert say(ann, game, "hello watchers", room="spectators").status_code == 403
    assert say(ann, game, "hm", room="kitchen").status_code == 403
    assert not ChatMessage.objects.exists()


def test_a_forged_post_without_the_forms_token_is_refused(table):
    game = table[0]
    forger = Client(enforce_csrf_checks=True)
    forger.force_login(game.seat0)
    response = forger.post(reverse("games:chat", args=[game.pk]), {"room": "players", "text": "x"})
    assert response.status_code == 403
    assert not ChatMessage.objects.exists()


def test_a_visitor_who_is_not_signed_in_is_sent_to_log_in(table):
    game = table[0]
    response = say(Client(), game, "hello", room="spectators")
    assert response.status_code == 302
    assert "/login" in response["Location"] or "accounts" in response["Location"]
    assert not ChatMessage.objects.exists()


def test_nobody_posts_in_a_private_game_they_do_not_play():
    ann, bob, carl = make_user("ann"), make_user("bob"), make_user("carl")
    game = started_game(ann, bob, private=True)
    assert say(client_for(carl), game, "hi", room="spectators").status_code == 404
    assert not ChatMessage.objects.exists()


def test_markup_is_shown_as_typed_and_links_as_text(table):
    game, ann, bob, _carl = table
    say(ann, game, '<script>alert("x")</script> see https://evil.example/win <b>now</b>')
    html = page(bob, game)
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in html
    assert "<script>alert" not in html
    assert "<b>now</b>" not in html
    assert "https://evil.example/win" in html
    assert 'href="https://evil.example' not in html


def test_an_empty_or_too_long_message_is_refused_saying_why(table):
    game, ann, _bob, _carl = table
    response = say(ann, game, "   ", htmx=True)
    assert response.status_code == 400
    assert "empty" in response.content.decode()
    long = "x" * 501
    response = say(ann, game, long, htmx=True)
    assert response.status_code == 400
    assert "at most 500 characters" in response.content.decode()
    assert long in response.content.decode()  # the text stays in its box
    assert say(ann, game, "y" * 500).status_code == 302
    assert ChatMessage.objects.count() == 1


def test_the_htmx_answer_is_the_emptied_form_and_the_line_just_sent(table):
    game, ann, _bob, _carl = table
    response = say(ann, game, "ready?", htmx=True)
    html = response.content.decode()
    assert response.status_code == 200
    assert 'id="chat-players-form"' in html
    assert 'name="text"' in html
    assert 'value=""' in html
    assert 'hx-swap-oob="beforeend:#chat-players-lines"' in html
    assert "ready?" in html


def test_five_messages_at_once_then_a_clear_refusal(table):
    game, ann, bob, _carl = table
    with time_machine.travel("2026-03-02 10:00:00", tick=False):
        for n in range(5):
            assert say(ann, game, f"line {n}").status_code == 302
        refused = say(ann, game, "line 5")
        assert refused.status_code == 302
        told = ann.get(refused["Location"]).content.decode()
    assert "at most 5 messages at once, then one every 2 seconds. Wait 2 seconds." in told
    assert ChatMessage.objects.count() == 5
    assert say(bob, game, "calm down").status_code == 302  # the limit is Ann's, not the game's


def test_a_line_costs_a_bounded_number_of_queries(table, django_assert_max_num_queries):
    """The session, the player, their settings, the game, may they write (a mute, the chat
    off; a person is told from the computer by their name), the day's count, and the line
    stored: the word filter's list is the cache's."""
    game, ann, _bob, _carl = table
    assert say(ann, game, "the list is read once", htmx=True).status_code == 200
    with django_assert_max_num_queries(10):
        assert say(ann, game, "a line like any other", htmx=True).status_code == 200


def test_a_player_told_to_wait_is_answered_at_once_until_they_may_write_again(
    table, django_assert_max_num_queries
):
    game, ann, _bob, _carl = table
    with time_machine.travel("2026-03-02 10:00:00", tick=False) as clock:
        for n in range(4):
            assert (
                "The next message can go"
                not in say(ann, game, f"line {n}", htmx=True).content.decode()
            )
        fifth = say(ann, game, "line 4", htmx=True)
        assert fifth.status_code == 200  # sent, and the form says when the next can go
        assert (
            "Sent. The next message can go in 2 seconds (at most 5 messages at once, then one "
            "every 2 seconds)." in fifth.content.decode()
        )
        # Clicking Send meanwhile: answered before even the session is read, and htmx swaps
        # nothing, so the form keeps its text and what it says.
        with django_assert_max_num_queries(0):
            again = say(ann, game, "line 6", htmx=True)
        assert (again.status_code, again.content) == (204, b"")
        # Her phone, another session: the site still knows, past its session and user.
        phone = client_for(game.seat0)
        with django_assert_max_num_queries(3):
            from_phone = say(phone, game, "line 6", htmx=True)
        assert (from_phone.status_code, from_phone.content) == (204, b"")
        without_javascript = say(ann, game, "line 7")
        assert without_javascript.status_code == 302
        assert "at most 5 messages" in ann.get(without_javascript["Location"]).content.decode()
        assert ChatMessage.objects.count() == 5
        clock.shift(2)
        assert say(ann, game, "line 8", htmx=True).status_code == 200
        assert say(phone, game, "line 9", htmx=True).status_code == 204  # one every 2 seconds
        clock.shift(2)
        assert say(phone, game, "line 10", htmx=True).status_code == 200
    assert ChatMessage.objects.count() == 7


def test_a_line_past_the_limit_is_refused_saying_why_even_where_nobody_was_told_to_wait(table):
    from django.core.cache import cache

    from games.community import floods

    game, ann, _bob, _carl = table
    with time_machine.travel("2026-03-02 10:00:00", tick=False):
        for n in range(5):
            say(ann, game, f"line {n}", htmx=True)
        # Another server process, which never told her session anything.
        floods.forget()
        cache.delete(f"chat-wait:{game.seat0_id}")
        refused = say(ann, game, "line 5", htmx=True)
    assert refused.status_code == 400  # the form again, with the line and the reason
    html = refused.content.decode()
    assert "Not sent: at most 5 messages at once, then one every 2 seconds. Wait 2 seconds." in html
    assert 'value="line 5"' in html
    assert ChatMessage.objects.count() == 5


def test_a_flood_is_let_through_one_message_every_two_seconds_never_in_bursts(table):
    game, ann, bob, _carl = table
    with time_machine.travel("2026-03-02 10:00:00", tick=False) as clock:
        for n in range(300):  # a script posting ten times a second for thirty seconds
            say(ann, game, f"line {n}", htmx=True)
            clock.shift(0.1)
        # Bob, writing now and then beside it, is never held up.
        assert say(bob, game, "please stop", htmx=True).status_code == 200
    sent = list(
        ChatMessage.objects.filter(author=game.seat0)
        .order_by("pk")
        .values_list("created_at", flat=True)
    )
    assert (sent[4] - sent[0]).total_seconds() < 1  # five at once
    gaps = [(later - earlier).total_seconds() for earlier, later in itertools.pairwise(sent[4:])]
    assert min(gaps) >= 1  # then never two within a second: no burst when a window opens
    late = [at for at in sent if (at - sent[0]).total_seconds() >= 10]
    assert 9 <= len(late) <= 11  # one every two seconds, over the last twenty


def test_the_early_answer_to_a_flood_is_only_for_its_session_and_its_chat(table):
    game, ann, bob, _carl = table
    with time_machine.travel("2026-03-02 10:00:00", tick=False):
        for n in range(6):
            say(ann, game, f"line {n}", htmx=True)
        # Bob writes on, and Ann may still move, resign or read: only her chat posts wait.
        assert say(bob, game, "are you there?", htmx=True).status_code == 200
        assert ann.get(game.get_absolute_url()).status_code == 200
        note = ann.post(
            reverse("games:notes", args=[game.pk]), {"text": "slow down"}, HTTP_HX_REQUEST="true"
        )
        assert note.status_code == 200
    assert ChatMessage.objects.filter(text="are you there?").count() == 1


def test_a_day_of_messages_in_one_game_has_a_ceiling(table, settings):
    settings.CHAT_PER_GAME_DAY = 3
    settings.CHAT_BURST = 100
    game, ann, _bob, _carl = table
    for n in range(3):
        say(ann, game, f"line {n}")
    response = say(ann, game, "one more", htmx=True)
    assert "at most 3 messages a day in one game" in response.content.decode()
    assert ChatMessage.objects.count() == 3
    other = started_game(game.seat0, make_user("dora"))
    assert say(ann, other, "hello Dora", htmx=True).status_code == 200  # another game: its own day
    assert ChatMessage.objects.filter(game=other, text="hello Dora").exists()


def test_quick_messages_are_stored_as_a_key_and_read_in_each_readers_language(table):
    game, ann, bob, _carl = table
    PlayerSettings.objects.update_or_create(user=game.seat0, defaults={"language": "pl"})
    PlayerSettings.objects.update_or_create(user=game.seat1, defaults={"language": "fr"})
    assert say(ann, game, "ignored", quick="good_luck").status_code == 302
    message = ChatMessage.objects.get()
    assert (message.quick, message.text) == ("good_luck", "")  # no language is stored
    for client, language in ((ann, "pl"), (bob, "fr")):
        with translation.override(language):
            words = pgettext("quick chat", "Good luck")
        html = page(client, game)
        assert f'<html lang="{language}">' in html
        assert f'<span class="chat-text quick">{words}</span>' in html
    assert say(ann, game, quick="bribe").status_code == 302
    assert ChatMessage.objects.count() == 1


def test_a_player_turns_one_games_chat_off_and_on(table):
    game, ann, bob, _carl = table
    say(bob, game, "are you there?")
    turn = reverse("games:chat-turn", args=[game.pk])
    assert ann.post(turn, {"on": "0"}).status_code == 302
    assert ChatOff.objects.filter(game=game, user=game.seat0).exists()
    html = page(ann, game)
    assert "are you there?" not in html
    assert "You turned the chat off" in html
    assert say(ann, game, "hello").status_code == 302
    assert ChatMessage.objects.count() == 1
    ann.post(turn, {"on": "1"})
    assert "are you there?" in page(ann, game)
    assert client_for(make_user("carl2")).post(turn, {"on": "0"}).status_code == 403


def test_the_account_setting_turns_every_games_chat_off(table):
    game, ann, bob, _carl = table
    say(bob, game, "gg soon")
    PlayerSettings.objects.update_or_create(user=game.seat0, defaults={"chat": False})
    assert "gg soon" not in page(ann, game)
    assert say(ann, game, "x").status_code == 302
    assert ChatMessage.objects.count() == 1
    assert "Chat in games" in ann.get(reverse("settings")).content.decode()


def test_private_chat_is_in_no_replay_and_no_record(table):
    game, ann, _bob, carl = table
    say(ann, game, "secret plan: the red area")
    services.resign(game, game.seat1)
    for name in ("games:replay", "games:record-json", "games:record-text"):
        for client in (ann, carl, Client()):
            body = client.get(reverse(name, args=[game.pk])).content.decode()
            assert "secret plan" not in body, name
    assert "secret plan" not in page(carl, game)
    assert "secret plan" in page(ann, game)  # its players keep it on the game page


def test_the_word_filter_holds_a_message_for_a_moderator(table, settings):
    settings.CHAT_HIDDEN_WORDS = ["rotten"]
    game, ann, bob, _carl = table
    assert say(ann, game, "You are a Rotten player").status_code == 302
    message = ChatMessage.objects.get()
    assert message.held
    assert "You are a Rotten player" not in page(bob, game)
    mine = page(ann, game)
    assert "You are a Rotten player" in mine
    assert "waiting for a moderator" in mine
    report = Report.objects.get()
    assert (report.reason, report.message, report.reporter) == ("filter", message, None)
    assert not chat._catches("a rottenness of the soul")  # whole words only


def test_a_word_added_in_the_admin_is_filtered_too(table):
    from games.models import HiddenWord

    HiddenWord.objects.create(word="cheater")
    game, ann, bob, _carl = table
    say(ann, game, "CHEATER!")
    assert "CHEATER!" not in page(bob, game)


def test_the_admins_list_is_read_afresh_once_a_word_is_added_or_taken_off(table):
    from games.models import HiddenWord

    game, ann, bob, _carl = table
    say(ann, game, "a first line: the list is read and kept")
    word = HiddenWord.objects.create(word="swindler")
    say(ann, game, "you swindler")
    assert "you swindler" not in page(bob, game)
    word.delete()
    say(ann, game, "the swindler again")
    assert "the swindler again" in page(bob, game)


def test_a_list_read_while_the_admins_change_commits_is_not_kept(
    table, django_capture_on_commit_callbacks
):
    """Another process's line read the list before the change committed, and kept it: the
    commit forgets it again."""
    from django.core.cache import cache

    from games.models import HiddenWord

    game, ann, bob, _carl = table
    with django_capture_on_commit_callbacks(execute=True):
        HiddenWord.objects.create(word="swindler")
        cache.set(chat.HIDDEN_WORDS, [], timeout=None)  # the list as it was, read meanwhile
    say(ann, game, "you swindler")
    assert "you swindler" not in page(bob, game)


def test_forget_deletes_a_players_messages_and_their_data_lists_them(table):
    game, ann, bob, _carl = table
    say(ann, game, "first")
    say(ann, game, quick="thanks")
    say(bob, game, "reply")
    written = chat.messages_written_by(game.seat0)
    assert [m["text"] for m in written] == ["first", "Thanks for the game"]
    assert written[0]["game"] == game.pk
    assert written[0]["room"] == "players"
    assert chat.forget(game.seat0) == 2
    assert list(ChatMessage.objects.values_list("text", flat=True)) == ["reply"]


def test_a_game_waiting_for_its_opponent_has_no_chat():
    ann = make_user("ann")
    from tests.site.factories import open_game

    game = open_game(ann)
    assert game.status == Game.Status.OPEN
    assert say(client_for(ann), game, "anyone?").status_code == 403


def test_posts_answered_by_the_gate_are_counted_apart_from_the_chats_own_answers(table):
    from prometheus_client import REGISTRY

    from games.community import floods
    from games.web.metrics import TOLD_TO_WAIT

    def counted(view: str) -> float:
        sample = {"view": view, "status": "2xx"}
        return (
            REGISTRY.get_sample_value("basilica_http_request_duration_seconds_count", sample) or 0
        )

    game, ann, _bob, _carl = table
    floods.CHAT_POSTS.tell(ann.cookies["sessionid"].value, 60, "too fast")
    gated, chat = counted(TOLD_TO_WAIT), counted("games:chat")
    assert say(ann, game, "spam", htmx=True).status_code == 204
    assert (counted(TOLD_TO_WAIT), counted("games:chat")) == (gated + 1, chat)


def test_the_computer_never_writes_in_its_games_chat():
    """Told from a person by its name without a query, and then by its row: never a line."""
    from games.play import computer

    ann = make_user("ann")
    bot = computer.account("easy").user
    game = started_game(ann, bot)
    with pytest.raises(chat.ChatRefused) as refused:
        chat.post(game, bot, "players", text="I never tire")
    assert (refused.value.status, refused.value.message) == (403, "You cannot write in this chat.")
    assert not ChatMessage.objects.filter(author=bot).exists()
    assert chat.post(game, ann, "players", text="good luck").author == ann


def test_a_person_whose_name_looks_like_the_computer_s_still_chats():
    """The name only says who surely is a person; a look-alike is asked of the bots' rows."""
    fan = make_user("computer-fan")
    game = started_game(fan, make_user("bob"))
    assert chat.post(game, fan, "players", text="beep").text == "beep"
