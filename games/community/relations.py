"""Follows and blocks: the only ways they change, and what a closing account and a player's
data download ask of them.

A block is silent: nothing here tells the blocked player, and each refusal they meet elsewhere
(an Accept, an invitation, a lobby) reads as a seek no longer there. Blocking ends the blocker's
follow of the blocked player; the blocked player's follow stays where they can see it, and
brings them no news (``Follow.objects.followers_of`` leaves out a blocked pair).
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.db.models import Q

from games.models import Block, Follow, Presence


class NotAPlayer(ValueError):
    """A follow or block of oneself: there is nobody else to keep or keep away."""


def _other(user, person) -> None:
    if person is None or person.pk == user.pk:
        raise NotAPlayer("one cannot follow or block oneself")


def follow(user, person) -> bool:
    """``user`` follows ``person``; False if they did already. Following someone one blocked
    undoes nothing: the block stays, and its silence with it, so no follow is made."""
    _other(user, person)
    if Block.objects.filter(blocker=user, blocked=person).exists():
        return False
    try:
        with transaction.atomic():
            Follow.objects.create(follower=user, followed=person)
    except IntegrityError:
        return False
    return True


def unfollow(user, person) -> bool:
    deleted, _ = Follow.objects.filter(follower=user, followed=person).delete()
    return bool(deleted)


def follows(user, person) -> bool:
    if not user.is_authenticated:
        return False
    return Follow.objects.filter(follower=user, followed=person).exists()


def block(user, person) -> bool:
    """``user`` blocks ``person``, and stops following them; False if blocked already. Their
    games in play go on: a block keeps new meetings away, it ends no game."""
    _other(user, person)
    with transaction.atomic():
        Follow.objects.filter(follower=user, followed=person).delete()
        try:
            with transaction.atomic():
                Block.objects.create(blocker=user, blocked=person)
        except IntegrityError:
            return False
    return True


def unblock(user, person) -> bool:
    deleted, _ = Block.objects.filter(blocker=user, blocked=person).delete()
    return bool(deleted)


def blocks(user, person) -> bool:
    """Whether ``user`` blocked ``person`` (never asked on the blocked player's behalf)."""
    if not user.is_authenticated:
        return False
    return Block.objects.filter(blocker=user, blocked=person).exists()


def apart(a, b) -> bool:
    """Whether either of two players blocked the other."""
    if a is None or b is None or not a.is_authenticated or not b.is_authenticated:
        return False
    return Block.objects.between(a, b).exists()


def forget(user) -> None:
    """Delete everything of ``user``'s relations: their follows and followers, the blocks they
    made and the ones made against them (a closing account)."""
    with transaction.atomic():
        Follow.objects.filter(Q(follower=user) | Q(followed=user)).delete()
        Block.objects.filter(Q(blocker=user) | Q(blocked=user)).delete()


def on_account_closed(user, **_facts) -> None:
    """A closed account keeps no relations, and is seen by nobody any more."""
    forget(user)
    Presence.objects.filter(user=user).delete()


def relations_of(user) -> dict:
    """What the site holds of ``user``'s relations, as plain data for their download: whom they
    follow, who follows them, and whom they blocked (never who blocked them: that is the
    blocker's, and silent)."""
    following = Follow.objects.filter(follower=user).select_related("followed")
    followers = Follow.objects.filter(followed=user).select_related("follower")
    blocked = Block.objects.filter(blocker=user).select_related("blocked")
    return {
        "following": [
            {"player": f.followed.username, "since": f.created_at.isoformat()} for f in following
        ],
        "followers": [
            {"player": f.follower.username, "since": f.created_at.isoformat()} for f in followers
        ],
        "blocked": [
            {"player": b.blocked.username, "since": b.created_at.isoformat()} for b in blocked
        ],
    }
