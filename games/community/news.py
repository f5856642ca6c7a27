"""What players hear of those they follow, and of the friends who invite them: a public seek
opened by a player they follow, and an invitation made to them by name.

Each is a ``Notification`` on the site's own channel ("site": listed on the Following page while
its game still waits) and, when the player asked for it, an email through the correspondence
notifications (``notify.queue``: their language, zone and quiet hours). A blocked pair hears
nothing of each other, either way.
"""

from __future__ import annotations

from dataclasses import replace

from django.db import IntegrityError, transaction
from django.utils import timezone
from huey.contrib.djhuey import db_task

from games.correspondence import notify
from games.models import Block, Follow, Game, Notification
from games.play import services
from games.terms import GameSettings

Kind = Notification.Kind
SITE = "site"  # the channel of a notification shown on the site's pages
SHOWN = 20  # the last notifications on the Following page


# -- a followed player's public seek ------------------------------------------------------------


def on_seek_changed(game: Game, **_facts) -> None:
    """A seek opened (a listener of ``games.events.seek_changed``): its player's followers are
    told, in the task runner, so the seek's request never waits for them (and a player nobody
    follows queues nothing)."""
    if game.status != Game.Status.OPEN or game.private or game.seat0_id is None:
        return
    if Follow.objects.followers_of(game.seat0).exists():
        tell_followers(game.pk)


@db_task()
def tell_followers(game_id: int) -> int:
    """Tell each follower of the player whose public seek ``game_id`` waits; not those blocked
    either way, nor anyone once the seek is gone."""
    game = Game.objects.select_related("seat0").filter(pk=game_id).first()
    if game is None or game.status != Game.Status.OPEN or game.private:
        return 0
    told = 0
    for follow in Follow.objects.followers_of(game.seat0).select_related("follower"):
        told += tell(follow.follower, Kind.FOLLOWED_SEEK, game)
    return told


def tell(user, kind: str, game: Game) -> bool:
    """One site notification (once per game) and the email if ``user`` wants it."""
    key = f"{SITE}:{kind}:{game.pk}"
    try:
        with transaction.atomic():
            Notification.objects.create(
                user=user,
                game=game,
                kind=kind,
                key=key,
                channel=SITE,
                outcome=Notification.Outcome.SENT,  # shown on the site: nothing to deliver
                sent_at=timezone.now(),
            )
    except IntegrityError:
        return False  # told already
    notify.queue(user, kind, game, key=f"{kind}:{game.pk}")
    return True


# -- an invitation by name ---------------------------------------------------------------------


def invite(user, friend, terms: GameSettings) -> Game:
    """A private game of ``terms`` opened by ``user`` for ``friend``, who is told at once. A
    friend who blocked ``user`` (or whom ``user`` blocked) is never told: the invitation waits
    like any other unanswered one, and its link leads them nowhere. UnplayableSettings, before
    anything is stored, for terms the lobby would not offer."""
    game = services.create_game(user, replace(terms, private=True))
    if friend.pk != user.pk and not Block.objects.between(user, friend).exists():
        transaction.on_commit(lambda: tell(friend, Kind.INVITED, game))
    return game


# -- what the Following page lists -------------------------------------------------------------


def waiting_for(user) -> list[Notification]:
    """``user``'s last site notifications whose game still waits for an opponent: the seeks
    and invitations they may still take."""
    hidden = Block.objects.hidden_from(user)
    notes = (
        Notification.objects.filter(user=user, channel=SITE, game__status=Game.Status.OPEN)
        .exclude(game__seat0_id__in=hidden)
        .select_related("game", "game__seat0")
    )
    return list(notes[:SHOWN])
