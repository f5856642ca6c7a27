"""Players among players on the web: follow and block from a profile, the Following page (who
is online, their games, one-click invitations, the seeks and invitations waiting for you), and
the blocked players in Settings. Each POST works with htmx (the button's partial) and without
(Post/Redirect/Get)."""

from __future__ import annotations

from dataclasses import replace

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from games import kinds
from games.community import news, presence, relations
from games.models import Block, Follow, Game
from games.terms import UnplayableSettings
from games.web import errors
from games.web.front import PRESETS
from games.web.ratelimit import limited

DEFAULT_INVITATION = "basilica-3d"
# The play-now buttons a friend may be invited to (not the computer's).
INVITATIONS = {key: preset for key, preset in PRESETS.items() if not preset.level}


def _person(username: str):
    return get_user_model().objects.filter(username=username).first()


def relation_context(viewer, person) -> dict:
    """What a profile's buttons show the viewer of ``person``: nothing to themselves or to a
    visitor. Whether ``person`` blocked the viewer is never read here: that is silent."""
    if not viewer.is_authenticated or viewer.pk == person.pk:
        return {"person": person, "relation": None}
    return {
        "person": person,
        "relation": {
            "follows": relations.follows(viewer, person),
            "blocks": relations.blocks(viewer, person),
        },
    }


def _relation_changed(request: HttpRequest, person, said: str) -> HttpResponse:
    if request.htmx:
        context = relation_context(request.user, person)
        return render(request, "games/_relation.html", {**context, "said": said})
    messages.info(request, said)
    return redirect("profile", person.username)


def _change(request: HttpRequest, username: str, change, said: str) -> HttpResponse:
    person = _person(username)
    if person is None:
        return errors.not_found_page(request, errors.no_player(username))
    if person.pk == request.user.pk:
        messages.error(request, _("You cannot follow or block yourself."))
        return redirect("profile", person.username)
    change(request.user, person)
    return _relation_changed(request, person, said % {"name": person.username})


@require_POST
@login_required
def follow(request: HttpRequest, username: str) -> HttpResponse:
    return _change(request, username, relations.follow, _("You follow %(name)s."))


@require_POST
@login_required
def unfollow(request: HttpRequest, username: str) -> HttpResponse:
    return _change(request, username, relations.unfollow, _("You no longer follow %(name)s."))


@require_POST
@login_required
def block(request: HttpRequest, username: str) -> HttpResponse:
    said = _("You blocked %(name)s: you will not meet them in the lobby or in invitations.")
    return _change(request, username, relations.block, said)


@require_POST
@login_required
def unblock(request: HttpRequest, username: str) -> HttpResponse:
    person = _person(username)
    if person is not None and request.POST.get("back") == "settings":
        relations.unblock(request.user, person)
        messages.info(request, _("You unblocked %(name)s.") % {"name": person.username})
        return redirect("settings")
    return _change(request, username, relations.unblock, _("You unblocked %(name)s."))


@require_GET
@login_required
def following(request: HttpRequest) -> HttpResponse:
    """The players one follows: online or when last seen, their games in play, and a button to
    invite each; and the seeks and invitations waiting for you."""
    # A player who blocked the viewer stays listed (silence): only their news stops.
    follows = list(Follow.objects.of(request.user).select_related("followed"))
    people = [f.followed for f in follows]
    seen = presence.seen_many(people)
    games = (
        Game.objects.running()
        .visible_to(request.user)
        .filter(Q(seat0__in=people) | Q(seat1__in=people))
        .select_related("seat0", "seat1")
    )
    playing: dict[int, list[Game]] = {}
    for game in games:
        for seat in (game.seat0_id, game.seat1_id):
            playing.setdefault(seat, []).append(game)
    rows = [
        {"person": p, "seen": seen.get(p.pk, presence.HIDDEN), "games": playing.get(p.pk, [])}
        for p in people
    ]
    context = {
        "rows": rows,
        "invitations": [
            (key, f"{kinds.get(preset.kind).title} · {preset.label}")
            for key, preset in INVITATIONS.items()
        ],
        "default_invitation": DEFAULT_INVITATION,
        "waiting": news.waiting_for(request.user),
    }
    return render(request, "games/following.html", context)


@require_POST
@login_required
@limited("create_game")
def invite(request: HttpRequest, username: str) -> HttpResponse:
    """One click: a private game of the chosen play-now terms, its invitation sent to the
    friend; the inviter is taken to its waiting page, which holds its link too."""
    friend = _person(username)
    chosen = INVITATIONS.get(request.POST.get("preset", ""))
    if friend is None or chosen is None or friend.pk == request.user.pk:
        messages.error(request, _("That invitation was not one of the page's: reload the page."))
        return redirect("following")
    try:
        game = news.invite(request.user, friend, replace(chosen.terms(), private=True))
    except UnplayableSettings as refusal:
        messages.error(request, str(refusal))
        return redirect("following")
    messages.info(
        request,
        _("%(name)s is invited: the game starts when they accept.") % {"name": friend.username},
    )
    return redirect(game)


def blocked_players(user) -> list:
    """The players ``user`` blocked, for Settings."""
    return [b.blocked for b in Block.objects.filter(blocker=user).select_related("blocked")]
