"""Friends: a player follows another from their page, finds them on the Following page (online
or when last seen, their games in play), invites them in one click, and hears when they open a
public seek: on the site, and by email when asked for."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from factories import client_for, make_user, open_game, started_game

from games.community import presence, relations
from games.models import Follow, Game, Notification, PlayerSettings
from games.play import services

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def the_site(settings):
    settings.SITE_URL = "http://basilica.example"


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    return lambda: django_capture_on_commit_callbacks(execute=True)


@pytest.fixture
def ann():
    return make_user("ann", email="ann@example.com")


@pytest.fixture
def ben():
    return make_user("ben", email="ben@example.com")


def following_page(user) -> str:
    return client_for(user).get(reverse("following")).text


# -- following from a profile -------------------------------------------------------------------


def test_ann_follows_ben_from_his_page_without_javascript(ann, ben):
    browser = client_for(ann)
    page = browser.get(reverse("profile", args=["ben"])).text
    assert f'action="{reverse("follow", args=["ben"])}"' in page
    response = browser.post(reverse("follow", args=["ben"]), follow=True)
    assert response.redirect_chain[-1][0] == reverse("profile", args=["ben"])
    assert "You follow ben." in response.text
    assert ">Unfollow</button>" in response.text
    assert Follow.objects.filter(follower=ann, followed=ben).exists()


def test_with_htmx_the_button_box_alone_comes_back(ann, ben):
    response = client_for(ann).post(reverse("follow", args=["ben"]), HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert response.text.lstrip().startswith('<div id="relation"')
    assert ">Unfollow</button>" in response.text
    assert "<html" not in response.text


def test_ann_unfollows_ben(ann, ben):
    relations.follow(ann, ben)
    browser = client_for(ann)
    response = browser.post(reverse("unfollow", args=["ben"]), follow=True)
    assert "You no longer follow ben." in response.text
    assert ">Follow</button>" in response.text
    assert not Follow.objects.exists()
    assert "ben" not in following_page(ann).split('id="followed"')[1]


def test_following_twice_keeps_one_follow(ann, ben):
    browser = client_for(ann)
    browser.post(reverse("follow", args=["ben"]))
    browser.post(reverse("follow", args=["ben"]))
    assert Follow.objects.count() == 1


def test_nobody_follows_themselves(ann):
    response = client_for(ann).post(reverse("follow", args=["ann"]), follow=True)
    assert "You cannot follow or block yourself." in response.text
    assert not Follow.objects.exists()


def test_her_own_page_and_a_visitor_see_no_follow_button(ann, ben):
    assert 'id="relation"' not in client_for(ann).get(reverse("profile", args=["ann"])).text
    assert 'id="relation"' not in Client().get(reverse("profile", args=["ben"])).text


def test_a_visitor_cannot_follow(ben):
    response = Client().post(reverse("follow", args=["ben"]))
    assert response.status_code == 302
    assert "/accounts/login/" in response["Location"]
    assert not Follow.objects.exists()


def test_a_forged_follow_without_the_csrf_token_is_refused(ann, ben):
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(ann)
    for name in ("follow", "block", "invite"):
        assert (
            browser.post(reverse(name, args=["ben"]), {"preset": "basilica-3d"}).status_code == 403
        )
    assert not Follow.objects.exists()
    assert not Game.objects.exists()


def test_following_a_player_who_does_not_exist_says_so(ann):
    response = client_for(ann).post(reverse("follow", args=["nobody"]))
    assert response.status_code == 404
    assert not Follow.objects.exists()


def test_a_visitor_is_sent_to_log_in_from_the_following_page():
    response = Client().get(reverse("following"))
    assert response.status_code == 302
    assert "/accounts/login/" in response["Location"]


# -- the Following page ----------------------------------------------------------------------


def test_the_header_links_to_the_following_page(ann):
    page = client_for(ann).get(reverse("games:lobby")).text
    assert f'href="{reverse("following")}"' in page


def test_the_following_page_shows_who_is_online_and_their_games(ann, ben):
    cas = make_user("cas")
    relations.follow(ann, ben)
    relations.follow(ann, cas)
    game = started_game(ben, make_user("dee"))
    presence.touch(ben)
    presence.touch(cas, now=timezone.now() - timedelta(days=2))
    page = following_page(ann)
    ben_row = page.split("<strong>ben</strong>")[1].split("<strong>cas</strong>")[0]
    assert "Online now" in ben_row
    assert f'href="{game.get_absolute_url()}"' in ben_row
    cas_row = page.split("<strong>cas</strong>")[1]
    assert "Online now" not in cas_row
    assert "Last seen" in cas_row
    assert "No game in play." in cas_row


def test_a_private_game_of_a_friend_stays_private(ann, ben):
    relations.follow(ann, ben)
    game = started_game(ben, make_user("dee"), private=True)
    assert game.get_absolute_url() not in following_page(ann)


# -- one-click invitations ---------------------------------------------------------------------


def test_one_click_invites_a_friend_who_is_told_on_the_site_and_by_email(
    ann, ben, committed, mailoutbox
):
    relations.follow(ann, ben)
    assert 'name="preset"' in following_page(ann)
    with committed():
        response = client_for(ann).post(
            reverse("invite", args=["ben"]), {"preset": "basilica-3d"}, follow=True
        )
    game = Game.objects.get()
    assert game.private
    assert game.status == Game.Status.OPEN
    assert game.seat0 == ann
    assert game.time_control == "3d"
    assert "ben is invited" in response.text
    link = reverse("games:invitation", args=[game.invite_token])
    assert link in following_page(ben)
    assert "ann invites you to a game of Basilica" in following_page(ben)
    [mail] = [m for m in mailoutbox if m.to == ["ben@example.com"]]
    assert "ann invites you" in mail.subject
    assert "http://basilica.example" + link in mail.body
    # Ben accepts from the link he was sent: the game begins.
    client_for(ben).post(reverse("games:accept", args=[game.pk]), {"token": game.invite_token})
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert game.seat1 == ben
    assert link not in following_page(ben)  # no longer waiting


def test_an_invitation_of_unknown_terms_changes_nothing(ann, ben):
    response = client_for(ann).post(
        reverse("invite", args=["ben"]), {"preset": "basilica-computer"}, follow=True
    )
    assert "That invitation was not one of the page" in response.text
    assert not Game.objects.exists()


# -- a followed player's public seek --------------------------------------------------------------


def test_a_follower_hears_of_a_public_seek_on_the_site(ann, ben, committed, mailoutbox):
    relations.follow(ann, ben)
    with committed():
        game = open_game(ben)
    page = following_page(ann)
    assert "ben is looking for an opponent for a game of Basilica" in page
    assert f'href="{game.get_absolute_url()}"' in page
    assert mailoutbox == []  # the email is asked for in Settings; it is off at first


def test_a_follower_who_asked_for_it_gets_an_email(ann, ben, committed, mailoutbox):
    relations.follow(ann, ben)
    client_for(ann).post(
        reverse("settings-emails"), {"email_followed_seek": "on", "email_your_turn": "on"}
    )
    assert PlayerSettings.objects.get(user=ann).email_followed_seek
    with committed():
        game = open_game(ben)
    [mail] = mailoutbox
    assert mail.to == ["ann@example.com"]
    assert "ben is looking for an opponent" in mail.subject
    assert "http://basilica.example" + game.get_absolute_url() in mail.body


def test_a_private_game_tells_no_follower(ann, ben, committed):
    relations.follow(ann, ben)
    with committed():
        open_game(ben, private=True)
    assert not Notification.objects.filter(user=ann).exists()


def test_a_seek_taken_drops_off_the_following_page(ann, ben, committed):
    relations.follow(ann, ben)
    with committed():
        game = open_game(ben)
    services.accept_game(game, make_user("cas"))
    assert "is looking for an opponent" not in following_page(ann)


def test_the_data_download_holds_follows_and_closing_forgets_them(ann, ben):
    relations.follow(ann, ben)
    relations.follow(ben, ann)
    relations.block(make_user("cas"), ann)
    data = relations.relations_of(ann)
    assert [row["player"] for row in data["following"]] == ["ben"]
    assert [row["player"] for row in data["followers"]] == ["ben"]
    assert data["blocked"] == []  # who blocked ann is cas's, and silent
    relations.forget(ann)
    assert relations.relations_of(ann) == {"following": [], "followers": [], "blocked": []}
    assert not Follow.objects.exists()
