"""One click to play, as lichess's quick pairing: join another player's open seek of the same
terms if there is one, else keep the player's own, else open one. Joining and opening go
through ``services`` like the lobby's Accept and Open."""

from __future__ import annotations

from games.models import Block, Game
from games.play import services
from games.play.refusals import refuse_if_suspended
from games.ratings import service as ratings
from games.terms import GameSettings, UnplayableSettings

PAIRED, WAITING, OPENED = "paired", "waiting", "opened"


def pair_or_open(user, terms: GameSettings) -> tuple[Game, str]:
    """The game ``user`` plays on ``terms`` and how they came to it: PAIRED (seated in the oldest
    matching seek of another player, the game begun), WAITING (their own matching seek, still
    open) or OPENED (a new seek). UnplayableSettings, before anything is stored, for terms the
    lobby would not offer, or for a suspended player (saying why)."""
    refuse_if_suspended(user, UnplayableSettings)
    mine = None
    for seek in open_to(user, matching(terms)).order_by("created_at", "pk"):
        if seek.seat0_id == user.pk:
            mine = mine or seek
            continue
        if ratings.range_refusal(seek, user):
            continue
        try:
            return services.accept_game(seek, user), PAIRED
        except services.MoveRejected:
            continue  # taken a moment ago by someone else: the next one
    if mine is not None:
        return mine, WAITING
    return settled(services.create_game(user, terms), user, terms)


def settled(opened: Game, user, terms: GameSettings) -> tuple[Game, str]:
    """Two players who click the same button at the same moment may each find no seek and open
    one: each then looks again, and the one whose seek is the later gives it up and joins the
    earlier, so that they play each other instead of both waiting."""
    earlier = (
        open_to(user, matching(terms)).filter(pk__lt=opened.pk).exclude(seat0=user).order_by("pk")
    )
    for seek in earlier:
        if ratings.range_refusal(seek, user):
            continue
        try:
            services.cancel_game(opened, user)
        except services.MoveRejected:
            # someone took ours in the meantime: this player is paired already
            return Game.objects.get(pk=opened.pk), PAIRED
        try:
            return services.accept_game(seek, user), PAIRED
        except services.MoveRejected:
            # taken by a third player a moment ago: open again, as if nothing had been found
            return services.create_game(user, terms), OPENED
    return opened, OPENED


def open_to(user, seeks):
    """Less the seeks of players ``user`` blocked or was blocked by: never paired, silently."""
    return seeks.exclude(seat0_id__in=Block.objects.hidden_from(user))


def matching(terms: GameSettings):
    """The open seeks a player asking for ``terms`` would take: the same game, options, clock,
    rated or not; one game, not a series; no hints."""
    seeks = Game.objects.open_seeks().filter(
        kind=terms.kind,
        time_control=terms.time_control,
        rated=terms.rated,
        series__isnull=True,
        hints=False,
    )
    for name, value in terms.options.items():
        seeks = seeks.filter(**{f"options__{name}": value})
    return seeks
