"""Blocks: Ann blocks Bob. Bob can no longer take her seeks, see them, or invite her, and she
sees nothing of his in her lobby; their game in play goes on. Bob is never told: every refusal
he meets reads as a seek already gone, and no page of his says he is blocked."""

from __future__ import annotations

import re

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse
from factories import client_for, first_legal, make_user, open_game, play, started_game

from games.community import relations
from games.models import Follow, Game, Notification
from games.play import seeks, services
from games.terms import GameSettings

pytestmark = pytest.mark.django_db

TAKEN = "this game has already been taken or cancelled"


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    return lambda: django_capture_on_commit_callbacks(execute=True)


@pytest.fixture
def ann():
    return make_user("ann", email="ann@example.com")


@pytest.fixture
def bob(ann):
    bob = make_user("bob", email="bob@example.com")
    relations.block(ann, bob)
    return bob


def lobby_seeks(user) -> str:
    return client_for(user).get(reverse("games:lobby"), HTTP_HX_REQUEST="true").text


# -- Bob meets none of Ann's seeks --------------------------------------------------------------


def test_bob_cannot_accept_anns_seek_and_is_told_it_is_gone(ann, bob):
    seek = open_game(ann)
    response = client_for(bob).post(reverse("games:accept", args=[seek.pk]))
    assert response.status_code == 302
    said = [str(m) for m in get_messages(response.wsgi_request)]
    assert said == [TAKEN]
    seek.refresh_from_db()
    assert seek.status == Game.Status.OPEN
    assert seek.seat1 is None


def test_the_refusal_is_word_for_word_that_of_a_seek_someone_took(ann, bob):
    taken = open_game(make_user())
    services.accept_game(taken, make_user())
    response = client_for(bob).post(reverse("games:accept", args=[taken.pk]))
    assert [str(m) for m in get_messages(response.wsgi_request)] == [TAKEN]


def test_bob_cannot_take_anns_private_invitation_either(ann, bob):
    invitation = open_game(ann, private=True)
    browser = client_for(bob)
    assert (
        browser.get(reverse("games:invitation", args=[invitation.invite_token])).status_code == 404
    )
    browser.post(reverse("games:accept", args=[invitation.pk]), {"token": invitation.invite_token})
    invitation.refresh_from_db()
    assert invitation.status == Game.Status.OPEN


def test_quick_pairing_never_seats_bob_in_anns_seek(ann, bob):
    terms = GameSettings(time_control="3d")
    hers, _ = seeks.pair_or_open(ann, terms)
    his, how = seeks.pair_or_open(bob, terms)
    assert how == seeks.OPENED
    assert his.pk != hers.pk
    hers.refresh_from_db()
    assert hers.status == Game.Status.OPEN


def test_bob_does_not_see_anns_seek_in_the_lobby(ann, bob):
    seek = open_game(ann)
    other = open_game(make_user("cas"))
    for page in (client_for(bob).get(reverse("games:lobby")).text, lobby_seeks(bob)):
        assert reverse("games:accept", args=[seek.pk]) not in page
        assert reverse("games:accept", args=[other.pk]) in page


def test_the_direct_url_of_anns_seek_is_not_found_for_bob(ann, bob):
    seek = open_game(ann)
    assert client_for(bob).get(seek.get_absolute_url()).status_code == 404
    assert client_for(make_user()).get(seek.get_absolute_url()).status_code == 200


def test_ann_sees_nothing_of_bobs_in_her_lobby(ann, bob):
    seek = open_game(bob)
    game = started_game(bob, make_user("dee"))
    page = client_for(ann).get(reverse("games:lobby")).text
    assert reverse("games:accept", args=[seek.pk]) not in page
    assert game.get_absolute_url() not in page
    cas_page = client_for(make_user("cas")).get(reverse("games:lobby")).text
    assert game.get_absolute_url() in cas_page


# -- invitations and follows --------------------------------------------------------------------


def test_bobs_invitation_never_reaches_ann(ann, bob, committed, mailoutbox):
    with committed():
        response = client_for(bob).post(reverse("invite", args=["ann"]), {"preset": "basilica-3d"})
    game = Game.objects.get()
    assert response["Location"] == game.get_absolute_url()  # for Bob, as any invitation
    assert not Notification.objects.filter(user=ann).exists()
    assert mailoutbox == []
    assert "invites you" not in client_for(ann).get(reverse("following")).text


def test_blocking_ends_anns_follow_and_bob_silently_hears_nothing_more(ann, committed):
    bob = make_user("bob")
    relations.follow(ann, bob)
    relations.follow(bob, ann)
    relations.block(ann, bob)
    assert list(Follow.objects.values_list("follower__username", flat=True)) == ["bob"]
    # Bob still finds Ann on his Following page, as before the block...
    assert "<strong>ann</strong>" in client_for(bob).get(reverse("following")).text
    with committed():
        seek = open_game(ann)
    # ...but hears nothing of her seek.
    assert not Notification.objects.filter(user=bob).exists()
    assert seek.get_absolute_url() not in client_for(bob).get(reverse("following")).text


def test_ann_cannot_follow_the_player_she_blocked(ann, bob):
    relations.follow(ann, bob)
    assert not Follow.objects.exists()


# -- what goes on, and what is said --------------------------------------------------------------


def test_their_game_in_play_goes_on_after_the_block(ann):
    bob = make_user("bob")
    game = started_game(ann, bob)
    relations.block(ann, bob)
    game = play(game, [first_legal(game)])
    assert game.seq == 1
    assert game.status == Game.Status.ACTIVE
    for player in (ann, bob):
        assert client_for(player).get(game.get_absolute_url()).status_code == 200


def _relation_box(page: str) -> str:
    box = page.split('<div id="relation"')[1].split("</div>")[0]
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", box)


def test_bob_reads_anns_page_as_any_stranger_does(ann, bob):
    cas = make_user("cas")
    blocked_view = client_for(bob).get(reverse("profile", args=["ann"])).text
    stranger_view = client_for(cas).get(reverse("profile", args=["ann"])).text
    assert _relation_box(blocked_view) == _relation_box(stranger_view)
    assert "blocked you" not in blocked_view


def test_no_page_of_bobs_says_he_is_blocked(ann, bob):
    browser = client_for(bob)
    for name in ("settings", "following", "games:lobby", "games:mine"):
        page = browser.get(reverse(name)).text
        assert reverse("profile", args=["ann"]) not in page
        assert ">ann<" not in page
        assert "blocked you" not in page
        assert "You have blocked nobody." in page or name != "settings"


def test_ann_unblocks_bob_from_her_settings(ann, bob):
    browser = client_for(ann)
    page = browser.get(reverse("settings")).text
    assert "Blocked players" in page
    assert f'action="{reverse("unblock", args=["bob"])}"' in page
    response = browser.post(reverse("unblock", args=["bob"]), {"back": "settings"}, follow=True)
    assert response.redirect_chain[-1][0] == reverse("settings")
    assert "You unblocked bob." in response.text
    assert "You have blocked nobody." in response.text
    seek = open_game(ann)
    assert reverse("games:accept", args=[seek.pk]) in lobby_seeks(bob)


def test_ann_blocks_bob_from_his_page(ann):
    make_user("bob")
    response = client_for(ann).post(reverse("block", args=["bob"]), follow=True)
    assert "You blocked bob" in response.text
    assert ">Unblock</button>" in response.text
    assert ">Follow</button>" not in response.text
