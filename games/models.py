"""Players' games and their append-only action logs.

A game's state is never stored: it is rebuilt by replaying its ``Action`` rows through the
engine (see ``games.play.states.load_state``).
"""

from __future__ import annotations

import re
import secrets
import zoneinfo
from datetime import UTC, datetime, timedelta, tzinfo
from typing import Literal

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import models
from django.db.models import F, Q
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.translation import gettext, ngettext, pgettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from games import engine
from games.clock import NO_CLOCK, TimeControl
from games.compiled import Compiled

# A closed account keeps its row (its games' action logs point to it) under this name and its id;
# nobody may sign up with a name that begins so (games.web.accounts).
CLOSED_PREFIX = "deleted."


def is_closed(user) -> bool:
    """Whether ``user`` (an account, or its username) was closed (``games.play.closing``)."""
    if user is None:
        return False
    return (user if isinstance(user, str) else user.username).startswith(CLOSED_PREFIX)


def open_account(username: str):
    """The account called ``username``, unless there is none or it was closed (a closed
    account's pages are gone with it)."""
    if is_closed(username):
        return None
    return get_user_model().objects.filter(username=username).first()


def player_name(user, missing: str = "?") -> str:
    """The one name every page, record, list and email shows for ``user`` (an account, or its
    username as a query gave it): the username, or "deleted player" for a closed account;
    ``missing`` for an empty seat."""
    if user is None:
        return missing
    if is_closed(user):
        return gettext("deleted player")
    return user if isinstance(user, str) else user.username


def new_seed() -> int:
    return secrets.randbits(62)


def new_token() -> str:
    return secrets.token_urlsafe(16)


class Ending:
    """The words ``Game.termination`` keeps for an ending off the board; an ending by the rules
    keeps the engine's own word ("exhaustion", "all_placed"...)."""

    TIMEOUT = "timeout"
    RESIGNATION = "resignation"
    ABORTED = "aborted"  # by a player, before their own first move
    ABANDONED = "abandoned"  # a player made no first move in time
    REFEREE = "referee"
    NO_RESULT = (ABORTED, ABANDONED)
    OUT_OF_TIME = (TIMEOUT, ABANDONED)  # the clock of the player who ended it ran out
    BY_HAND = (RESIGNATION, ABORTED)  # chosen by the player who ended the game

    WORDS = {
        TIMEOUT: pgettext_lazy("ending", "time ran out"),
        RESIGNATION: pgettext_lazy("ending", "resignation"),
        ABORTED: pgettext_lazy("ending", "aborted"),
        ABANDONED: pgettext_lazy("ending", "abandoned"),
        REFEREE: pgettext_lazy("ending", "referee's decision"),
    }


def result_words(result: str) -> str:
    """A game's result for one player ("won", "lost", "shared"; anything else: none), in the
    active language."""
    if result == "won":
        return pgettext("result", "won")
    if result == "lost":
        return pgettext("result", "lost")
    if result == "shared":
        return pgettext("result", "shared")
    return pgettext("result", "no result")


def termination_words(termination: str) -> str:
    """How a game ended (``Game.termination``) in the active language: an ending off the board
    in the site's words, an ending by the rules in its engine's (marked with ``N_`` there)."""
    if not termination:
        return ""
    if termination in Ending.WORDS:
        return str(Ending.WORDS[termination])
    return gettext(termination)


# Why a game asked to be rated is casual (``Game.casual_reason``, set by games.ratings): kept in
# English in the row, said in the reader's language by ``casual_words``.
CASUAL_UNTIMED = "untimed games are never rated: a player could stall forever"
CASUAL_COMPUTER = "games against the computer are never rated"
CASUAL_PAIRED = "these two players have begun {count} rated games together in the last 24 hours"
_CASUAL_PAIRED = re.compile(
    "^" + re.escape(CASUAL_PAIRED).replace(re.escape("{count}"), r"(\d+)") + "$"
)


def casual_words(reason: str) -> str:
    """A stored ``casual_reason`` in the active language (one not known, as it is)."""
    if reason == CASUAL_UNTIMED:
        return gettext("untimed games are never rated: a player could stall forever")
    if reason == CASUAL_COMPUTER:
        return gettext("games against the computer are never rated")
    paired = _CASUAL_PAIRED.match(reason)
    if paired:
        count = int(paired[1])
        return ngettext(
            "these two players have begun %(count)d rated game together in the last 24 hours",
            "these two players have begun %(count)d rated games together in the last 24 hours",
            count,
        ) % {"count": count}
    return reason


Viewer = Literal["staff", "player", "anonymous"]


class GameQuerySet(models.QuerySet):
    def involving(self, user) -> GameQuerySet:
        return self.filter(Q(seat0=user) | Q(seat1=user))

    def open_seeks(self) -> GameQuerySet:
        return self.filter(status=Game.Status.OPEN, private=False)

    def visible_to(self, user) -> GameQuerySet:
        """Public games, and private ones to their players and the staff only."""
        return self.seen_by(_viewer(user), user.pk)

    def seen_by(self, viewer: Viewer, user_id: int | None = None) -> GameQuerySet:
        """The games a ``viewer`` ("staff", "player" ``user_id``, or "anonymous") may know exist:
        the staff every game, everyone else the public ones, and a player their own."""
        if viewer == "staff":
            return self
        if viewer == "anonymous":
            return self.filter(private=False)
        if viewer != "player" or user_id is None:  # never "seat IS NULL": every open seek
            raise ValueError(f"no such viewer: {viewer!r} {user_id!r}")
        return self.filter(Q(private=False) | Q(seat0_id=user_id) | Q(seat1_id=user_id))

    def with_players(self) -> GameQuerySet:
        """Each game with its two players' rows, read in the same query."""
        return self.select_related("seat0", "seat1")

    def running(self) -> GameQuerySet:
        return self.filter(status=Game.Status.ACTIVE)

    def not_blocked(self, user) -> GameQuerySet:
        """Less the games of any player ``user`` blocked or was blocked by: a lobby shows a
        blocked pair nothing of each other."""
        hidden = Block.objects.hidden_from(user)
        if not hidden:
            return self
        return self.exclude(seat0_id__in=hidden).exclude(seat1_id__in=hidden)

    def against_the_computer(self, user) -> GameQuerySet:
        """``user``'s games against one of the site's bots, in either seat."""
        return self.filter(
            Q(seat0=user, seat1__computer__isnull=False)
            | Q(seat1=user, seat0__computer__isnull=False)
        )

    def being_played(self) -> GameQuerySet:
        """Public games in play, the last moved first: the list anyone may open to watch."""
        return self.running().filter(private=False).order_by("-updated_at", "-pk")

    def waiting_for(self, user) -> GameQuerySet:
        """Running games in which ``user`` must decide now."""
        return self.running().filter(Q(seat0=user, to_decide=0) | Q(seat1=user, to_decide=1))

    def deciding(self, user) -> GameQuerySet:
        """Running games in which ``user`` must decide now, the least time left first."""
        return self.waiting_for(user).order_by(F("deadline").asc(nulls_last=True), "updated_at")


class Game(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", pgettext_lazy("game status", "waiting for an opponent")
        ACTIVE = "active", pgettext_lazy("game status", "in play")
        FINISHED = "finished", pgettext_lazy("game status", "finished")
        CANCELLED = "cancelled", pgettext_lazy("game status", "cancelled")
        ABORTED = "aborted", pgettext_lazy("game status", "aborted")

    class Edition(models.TextChoices):
        E2010 = "2010", _("2010 (the King)")
        E2022 = "2022", _("2022 (the Queen, with the Jester)")

    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="games_created"
    )
    # Seat 0 is engine player 0, seat 1 engine player 1; who moves first is in ``options``.
    seat0 = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="games_as_seat0",
        null=True,
        blank=True,
    )
    seat1 = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="games_as_seat1",
        null=True,
        blank=True,
    )
    kind = models.CharField(
        max_length=20, default="basilica", help_text="the game kind: its key in games.kinds"
    )
    # Basilica's edition, kept in a column of its own for lists; blank for other games.
    edition = models.CharField(
        max_length=4, choices=Edition.choices, default=Edition.E2022, blank=True
    )
    options = models.JSONField(help_text="the engine's Options, as JSON")
    seed = models.BigIntegerField(default=new_seed, editable=False)
    private = models.BooleanField(default=False, help_text="an invitation by link, not a seek")
    invite_token = models.CharField(max_length=32, default=new_token, unique=True, editable=False)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    seq = models.PositiveIntegerField(default=0, help_text="number of actions in the log")
    to_decide = models.SmallIntegerField(null=True, blank=True, help_text="seat that must act")
    winners = models.JSONField(default=list, blank=True)
    scores = models.JSONField(default=list, blank=True)
    termination = models.CharField(max_length=20, blank=True)
    time_control = models.CharField(
        max_length=8, default=NO_CLOCK, help_text='"3d" (days per decision), "10+5" or "none"'
    )
    # When the running clock reaches zero, as of the last move or vacation change: an index
    # for the sweep, not the truth (that is read off the action times by ``games.play.timing``).
    deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    ended_by = models.SmallIntegerField(
        null=True, blank=True, help_text="seat that resigned, ran out of time or aborted"
    )
    rematch_offered_by = models.SmallIntegerField(null=True, blank=True)
    rematch_declined = models.BooleanField(default=False)
    # A takeback asked for (games.play.takebacks): the action it is for, open while the log
    # still ends with that action and it was not declined; who asked.
    takeback_seq = models.PositiveIntegerField(null=True, blank=True)
    takeback_by = models.SmallIntegerField(null=True, blank=True)
    takeback_declined = models.BooleanField(default=False)
    rematch_of = models.OneToOneField(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="rematch"
    )
    # The version of the kind's engine the game is played on: a stored game replays on its own.
    engine_version = models.CharField(max_length=10, default="1")
    series = models.ForeignKey(
        "Series", on_delete=models.PROTECT, null=True, blank=True, related_name="games"
    )
    series_number = models.PositiveSmallIntegerField(null=True, blank=True)
    # A game loaded from a record to be studied (never rated): no seats, its players' names.
    imported = models.BooleanField(default=False)
    imported_names = models.JSONField(default=list, blank=True)
    # Rated or casual: asked for at creation, decided when the game starts (games.ratings).
    rated = models.BooleanField(default=False)
    casual_reason = models.CharField(
        max_length=120, blank=True, help_text="why a game asked to be rated is casual"
    )
    # A seek for opponents of this strength only (at the kind's and speed's rating); no bound
    # when empty.
    rating_min = models.PositiveSmallIntegerField(null=True, blank=True)
    rating_max = models.PositiveSmallIntegerField(null=True, blank=True)
    # Both players agreed, by creating or accepting it, that either may ask the search bot for a
    # move; a rated game never allows it (Game.allows_hints).
    hints = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = GameQuerySet.as_manager()

    class Meta:
        ordering = ["-updated_at"]
        indexes = [models.Index(fields=["status", "private"])]

    def __str__(self) -> str:
        return f"Game {self.pk}: {self.title}"

    def get_absolute_url(self) -> str:
        return reverse("games:detail", args=[self.pk])

    @property
    def title(self) -> str:
        first, second = self.names
        return gettext("%(first)s vs %(second)s") % {"first": first, "second": second}

    @property
    def names(self) -> list[str]:
        """The players' names: their usernames, or as an imported record gives them."""
        if self.imported:
            return list(self.imported_names)
        return [player_name(u) for u in (self.seat0, self.seat1)]

    @property
    def engine(self) -> engine.GameEngine:
        return engine.engine_for(self.kind, self.engine_version)

    @property
    def engine_options(self):
        return self.engine.Options.from_json(self.options)

    @property
    def kind_title(self) -> str:
        return self.engine.TITLE

    @property
    def clock_control(self) -> TimeControl:
        return TimeControl.parse(self.time_control)

    @property
    def rated_label(self) -> str:
        """ "rated", "casual", or "casual: <why>" (a game asked to be rated that a rule made
        casual), for the lobby and the game's pages, in the active language."""
        if self.rated:
            return pgettext("game", "rated")
        if self.casual_reason:
            why = casual_words(self.casual_reason)
            if self.hints:
                return gettext("casual: %(why)s, hints allowed") % {"why": why}
            return gettext("casual: %(why)s") % {"why": why}
        if self.hints:
            return gettext("casual, hints allowed")
        return pgettext("game", "casual")

    @property
    def over(self) -> bool:
        return self.status in (self.Status.FINISHED, self.Status.ABORTED)

    def allows_hints(self) -> bool:
        """Whether its players may ask the search bot for a move: in a game against the computer,
        and in a casual game opened with hints (whoever accepted it saw so); never when rated."""
        if self.rated:
            return False
        if self.hints:
            return True
        seats = [pk for pk in (self.seat0_id, self.seat1_id) if pk is not None]
        loaded = [Game.seat0.is_cached(self), Game.seat1.is_cached(self)]
        if all(loaded) and not any(u and Computer.may_be(u) for u in (self.seat0, self.seat1)):
            return False  # two people: no query
        return Computer.objects.filter(user_id__in=seats).exists()

    def seat_of(self, user) -> int | None:
        if not user.is_authenticated:
            return None
        if self.seat0_id == user.pk:
            return 0
        if self.seat1_id == user.pk:
            return 1
        return None

    def can_watch(self, user) -> bool:
        """Players always; anyone, signed in or not, for a public game once it has begun."""
        if self.status == self.Status.CANCELLED:
            return False
        if self.seat_of(user) is not None:
            return True
        return not self.private and self.status != self.Status.OPEN

    def player(self, seat: int):
        return self.seat0 if seat == 0 else self.seat1

    def result_for(self, user) -> str:
        """ "won", "lost", "shared" or "" for the user's view of a finished game."""
        seat = self.seat_of(user)
        if self.status != self.Status.FINISHED or seat is None:
            return ""
        if seat not in self.winners:
            return "lost"
        return "shared" if len(self.winners) == 2 else "won"


def _viewer(user) -> Viewer:
    """Who asks, as ``GameQuerySet.seen_by`` tells viewers apart."""
    if user.is_staff:
        return "staff"
    return "player" if user.is_authenticated else "anonymous"


# A game's row with its two players: what every page, move, chat line and push of a game reads
# first, compiled once (games.compiled), a query for each kind of viewer.
_GAME_SEEN_BY = {
    viewer: Compiled(
        lambda pk, *user_id, viewer=viewer: (
            Game.objects.with_players().filter(pk=pk).seen_by(viewer, *user_id)
        )
    )
    for viewer in ("staff", "player", "anonymous")
}


_WAITING_FOR = Compiled(lambda user_id: Game.objects.waiting_for(user_id).order_by())


def count_waiting_for(user) -> int:
    """How many running games wait for ``user``'s decision (every page's header says it)."""
    return _WAITING_FOR.count(user.pk)


def game_with_players(pk: int, user=None) -> Game | None:
    """Game ``pk`` with its players, or None; with ``user``, only if they may know it exists
    (``GameQuerySet.visible_to``)."""
    pk = int(pk)
    if not 0 < pk < 2**63:
        return None  # no row has it (and SQLite would not take it)
    viewer = "staff" if user is None else _viewer(user)  # no one asks: the game as it is
    if viewer == "player":
        return _GAME_SEEN_BY[viewer].first(pk, user.pk)
    return _GAME_SEEN_BY[viewer].first(pk)


class Series(models.Model):
    """A match of several games between the same two players, roles alternating (Cathedral's
    rule 8: each game's unplaced squares are its points, the smallest total wins)."""

    kind = models.CharField(max_length=20)
    length = models.PositiveSmallIntegerField(help_text="games in the series")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name_plural = "series"

    def __str__(self) -> str:
        return f"Series {self.pk} of {self.length} games"

    def get_absolute_url(self) -> str:
        return reverse("games:series", args=[self.pk])


class Action(models.Model):
    """One decision in a game's log. Rows are only ever appended."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="actions")
    seq = models.PositiveIntegerField()
    player = models.SmallIntegerField(help_text="engine seat, 0 or 1")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT)
    data = models.JSONField(help_text="the engine action, as JSON")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="one_action_per_seq"),
        ]

    def __str__(self) -> str:
        return f"{self.game_id}#{self.seq}"

    def save(self, *args, **kwargs):
        if self.pk is not None:
            raise ValueError("the action log is append-only")
        super().save(*args, **kwargs)


class PlayerSettings(models.Model):
    """A player's choices of notification, of play, of language and time zone, and their
    vacation allowance."""

    class Confirm(models.TextChoices):
        CORRESPONDENCE = (
            "correspondence",
            _("In correspondence and untimed games, not in live ones"),
        )
        ALWAYS = "always", _("In every game")
        NEVER = "never", _("Never: a move is sent at its last click")

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="player_settings"
    )
    email_your_turn = models.BooleanField(_("“Your turn” emails"), default=True)
    email_time_running_out = models.BooleanField(_("“Time almost up” emails"), default=True)
    email_game_over = models.BooleanField(_("“Game over” emails"), default=True)
    email_rematch_offered = models.BooleanField(_("“Rematch offered” emails"), default=True)
    email_daily_digest = models.BooleanField(
        _("A daily digest of the games waiting for me"), default=False
    )
    confirm_moves = models.CharField(
        _("Look at each move before sending it"),
        max_length=16,
        choices=Confirm.choices,
        default=Confirm.CORRESPONDENCE,
    )
    sound = models.BooleanField(_("A short sound when it becomes my turn"), default=False)
    next_game_after_move = models.BooleanField(
        _("After a move that ends my turn, go to the next game waiting for me"), default=False
    )
    takebacks_in_rated = models.BooleanField(
        _("Allow takebacks in rated games"),
        default=False,
        help_text=_("a rated game allows them only when both players allow them"),
    )
    email_conditional_played = models.BooleanField(
        _("“Prepared reply played” emails"), default=True
    )
    email_invited = models.BooleanField(_("“Invited to a game” emails"), default=True)
    email_followed_seek = models.BooleanField(
        _("“A player I follow opens a seek”: an email, and a notification in my browsers"),
        default=False,
    )
    hide_presence = models.BooleanField(
        _("Hide when I am online and when I was last seen"), default=False
    )
    email_tournament_game = models.BooleanField(_("“Tournament game starts” emails"), default=True)
    email_tournament_over = models.BooleanField(_("“Tournament over” emails"), default=True)
    email_takeback_asked = models.BooleanField(_("“Takeback asked” emails"), default=True)
    calendar_token = models.CharField(
        max_length=43,
        null=True,
        blank=True,
        unique=True,
        editable=False,
        help_text="the secret of the player's calendar feed; none: no feed",
    )
    language = models.CharField(
        _("Language"),
        max_length=8,
        choices=settings.LANGUAGES,
        blank=True,
        help_text=_("the site's pages and emails; empty: the browser's"),
    )
    time_zone = models.CharField(
        _("Time zone"),
        max_length=64,
        blank=True,
        help_text=_("every time shown and the digest's hour; empty: the browser's"),
    )
    quiet_from = models.PositiveSmallIntegerField(
        _("No emails from"), null=True, blank=True, help_text=_("an hour, 0-23, in my time zone")
    )
    quiet_until = models.PositiveSmallIntegerField(
        _("until"), null=True, blank=True, help_text=_("an hour, 0-23, in my time zone")
    )
    vacation_days = models.PositiveSmallIntegerField(
        default=0, help_text="whole days of vacation left to spend"
    )
    vacation_earned_at = models.DateTimeField(
        null=True, blank=True, help_text="allowance earned up to this moment"
    )
    chat = models.BooleanField(
        _("Chat in games"),
        default=True,
        help_text=_("off: no game's chat is shown to you, and you cannot write in one"),
    )

    class Meta:
        verbose_name_plural = "player settings"

    def __str__(self) -> str:
        return f"settings of {self.user}"

    @classmethod
    def of(cls, user) -> PlayerSettings:
        """The player's settings as stored, or the defaults (nothing is written)."""
        if user is None or not user.is_authenticated:
            return cls()
        asked = getattr(user, "settings_of_this_request", None)  # games.web.locale's
        if asked is not None:
            return asked
        return _SETTINGS_OF.first(user.pk) or cls(user=user)

    def confirms(self, live: bool) -> bool:
        """Whether a move in a game (live or not) waits for a "Confirm" click."""
        if self.confirm_moves == self.Confirm.ALWAYS:
            return True
        return self.confirm_moves == self.Confirm.CORRESPONDENCE and not live

    def wants(self, kind: str) -> bool:
        return getattr(self, f"email_{kind}")

    def speaks(self) -> str:
        """The language the player is written to in: their choice, else the site's."""
        return self.language or settings.LANGUAGE_CODE

    def zone(self) -> tzinfo:
        """The player's time zone: their choice, else UTC (an email has no browser to ask)."""
        try:
            return zoneinfo.ZoneInfo(self.time_zone) if self.time_zone else UTC
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            return UTC

    def quiet_at(self, moment: datetime) -> bool:
        """Whether ``moment`` falls in the player's quiet hours: from ``quiet_from`` o'clock to
        ``quiet_until`` o'clock in their zone, over midnight when it ends earlier than it
        begins (22 to 8). The same hour twice, or none, is no quiet time."""
        start, end = self.quiet_from, self.quiet_until
        if start is None or end is None or start == end:
            return False
        hour = moment.astimezone(self.zone()).hour
        if start < end:
            return start <= hour < end
        return hour >= start or hour < end


# Read by every request of a signed-in player and every push to one: compiled once.
_SETTINGS_OF = Compiled(lambda user_id: PlayerSettings.objects.filter(user_id=user_id)[:1])


class Vacation(models.Model):
    """A stretch of time in which the player's correspondence clocks stand still."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="vacations"
    )
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField()
    days = models.PositiveSmallIntegerField(help_text="days of allowance spent")
    planned = models.BooleanField(
        default=False, help_text="turned on by the player, not spent to save a game"
    )
    saved = models.ForeignKey(
        Game,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        help_text="the game whose clock ran out, for which the days were spent",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-starts_at"]
        indexes = [models.Index(fields=["user", "ends_at"])]

    def __str__(self) -> str:
        return f"{self.user} on vacation {self.starts_at:%Y-%m-%d %H:%M} to {self.ends_at:%Y-%m-%d %H:%M}"

    @property
    def paid_until(self) -> datetime:
        """The end of the whole days spent. The game a vacation saved keeps its clock standing
        still to here, even when its player comes back sooner and the vacation ends."""
        return self.starts_at + timedelta(days=self.days)


class Notification(models.Model):
    """Every notification the site sends, and what became of it."""

    class Kind(models.TextChoices):
        # Said inside quotes: “your turn” emails.
        YOUR_TURN = "your_turn", _("your turn")
        TIME_RUNNING_OUT = "time_running_out", _("time almost up")
        GAME_OVER = "game_over", _("game over")
        REMATCH_OFFERED = "rematch_offered", _("rematch offered")
        DAILY_DIGEST = "daily_digest", _("daily digest")
        CONDITIONAL_PLAYED = "conditional_played", _("prepared reply played")
        INVITED = "invited", _("invited to a game")
        FOLLOWED_SEEK = "followed_seek", _("a player I follow opens a seek")
        TOURNAMENT_GAME = "tournament_game", _("tournament game starts")
        TOURNAMENT_OVER = "tournament_over", _("tournament over")
        TAKEBACK_ASKED = "takeback_asked", _("takeback asked")

    class Outcome(models.TextChoices):
        PENDING = "pending", _("waiting to be sent")
        SENT = "sent", _("delivered to the mail server")
        FAILED = "failed", _("failed")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications"
    )
    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, null=True, blank=True, related_name="notifications"
    )
    kind = models.CharField(max_length=20, choices=Kind.choices)
    # What makes it unique: at most one per (user, key), e.g. one "your turn" per decision.
    key = models.CharField(max_length=80)
    channel = models.CharField(max_length=10, default="email")
    address = models.CharField(max_length=254, blank=True)
    subject = models.CharField(max_length=200, blank=True)
    body = models.TextField(blank=True)
    # Where a browser notification leads, when not to its game's page (an invitation's link,
    # a tournament's page).
    link = models.CharField(max_length=300, blank=True)
    outcome = models.CharField(max_length=10, choices=Outcome.choices, default=Outcome.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="one_notification_per_key"),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} to {self.user} ({self.outcome})"


class GameVisit(models.Model):
    """When a player last had a game open: a page, a partial or a live socket."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="visits")
    seen_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "game"], name="one_visit_per_player"),
        ]

    def __str__(self) -> str:
        return f"{self.user} saw game {self.game_id} at {self.seen_at}"


class RefereeDecision(models.Model):
    """A referee's abort or result of a game, with the written reason: kept for good, so that
    ratings recomputed from stored results can see what was decided by hand, and why."""

    class Kind(models.TextChoices):
        ABORT = "abort", _("aborted the game")
        RESULT = "result", _("set the result")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="referee_decisions")
    referee = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="referee_decisions"
    )
    kind = models.CharField(max_length=10, choices=Kind.choices)
    reason = models.TextField()
    status_before = models.CharField(max_length=10, choices=Game.Status.choices)
    termination_before = models.CharField(max_length=20, blank=True)
    winners_before = models.JSONField(default=list, blank=True)
    scores_before = models.JSONField(default=list, blank=True)
    winners_after = models.JSONField(default=list, blank=True)
    scores_after = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "created_at", "pk"]

    def __str__(self) -> str:
        return f"{self.referee} {self.get_kind_display()} of game {self.game_id}"


class Computer(models.Model):
    """A computer player: the account it plays under, and the level of its bot."""

    class Level(models.TextChoices):
        RANDOM = "random", _("Random moves")
        GREEDY = "greedy", _("Greedy")
        SEARCH = "search", _("Monte Carlo search")

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="computer"
    )
    level = models.CharField(max_length=20, choices=Level.choices, unique=True)

    # The bots' user names begin so, and nobody may sign up with it (games.web.accounts): a
    # person's name says they are no bot without a query.
    USERNAME_PREFIX = "computer-"

    class Meta:
        ordering = ["level"]

    def __str__(self) -> str:
        return f"{self.user} ({self.get_level_display()})"

    @classmethod
    def may_be(cls, user) -> bool:
        """False when ``user`` is surely a person: their name lacks the bots' prefix."""
        return user.username.lower().startswith(cls.USERNAME_PREFIX)


class Speed(models.TextChoices):
    """A rating's speed class: the clock a game is played on (untimed games are never rated)."""

    LIVE = "live", pgettext_lazy("speed", "live")
    CORRESPONDENCE = "correspondence", pgettext_lazy("speed", "correspondence")


class Rating(models.Model):
    """A player's Glicko-2 rating at one game kind and speed, as of their last rated game."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings"
    )
    kind = models.CharField(max_length=20)
    speed = models.CharField(max_length=16, choices=Speed.choices)
    rating = models.FloatField(default=1500.0)
    deviation = models.FloatField(default=350.0)
    volatility = models.FloatField(default=0.06)
    games = models.PositiveIntegerField(default=0, help_text="rated games played")
    last_game_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["kind", "speed", "-rating"]
        constraints = [
            models.UniqueConstraint(fields=["user", "kind", "speed"], name="one_rating_per_class"),
        ]
        indexes = [models.Index(fields=["kind", "speed", "-rating"])]

    def __str__(self) -> str:
        return f"{self.user} {self.kind} {self.speed}: {self.rating:.0f}"


class RatingChange(models.Model):
    """What one rated game did to one player's rating: the chart's points and the recompute's
    check. One per (game, seat): a game is rated once, whatever races to end it."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="rating_changes")
    seat = models.SmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes"
    )
    opponent = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    kind = models.CharField(max_length=20)
    speed = models.CharField(max_length=16, choices=Speed.choices)
    score = models.FloatField(help_text="1 a win, 0.5 a shared result, 0 a loss")
    rating_before = models.FloatField()
    deviation_before = models.FloatField()
    rating_after = models.FloatField()
    deviation_after = models.FloatField()
    volatility_after = models.FloatField()
    at = models.DateTimeField(help_text="when the game ended")

    class Meta:
        ordering = ["at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="one_rating_change_per_seat"),
        ]
        indexes = [models.Index(fields=["user", "kind", "speed", "at"])]

    def __str__(self) -> str:
        return (
            f"game {self.game_id}: {self.user} {self.rating_before:.0f} -> {self.rating_after:.0f}"
        )

    @property
    def difference(self) -> int:
        return round(self.rating_after) - round(self.rating_before)


class PushDevice(models.Model):
    """A browser in which a player turned on Web Push notifications: the address its push
    service takes messages at (``endpoint``) and the keys each message is encrypted to. Deleted
    when the push service answers that the subscription is gone, or when the player removes it."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_devices"
    )
    # One row per browser subscription: a browser signed in to another account moves with it.
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=100, help_text="the browser's public key, base64url")
    auth = models.CharField(max_length=50, help_text="the browser's authentication secret")
    name = models.CharField(
        max_length=80, blank=True, help_text="the browser, as its player sees it"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "pk"]

    def __str__(self) -> str:
        return f"{self.name or 'a browser'} of {self.user}"

    @property
    def subscription(self) -> dict:
        """The subscription as the browser gave it (``PushSubscription.toJSON()``)."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}


class GameNote(models.Model):
    """A player's private notes on one game: read by its writer only (and by the staff who open
    it on purpose in the admin)."""

    MAX_LENGTH = 10_000

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="notes")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="game_notes"
    )
    text = models.TextField(max_length=MAX_LENGTH, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="one_note_per_player"),
        ]

    def __str__(self) -> str:
        return f"note of {self.user} on game {self.game_id}"


class ConditionalLine(models.Model):
    """A player's prepared line in a game of perfect information: ``moves`` are engine actions
    (JSON) played from the position after ``base_seq`` actions, the opponent's first. Private
    to its player until a move of it is played (``games.play.conditional``)."""

    MAX_PER_GAME = 30

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="conditional_lines")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="conditional_lines"
    )
    seat = models.SmallIntegerField(help_text="the engine seat of the player who prepared it")
    base_seq = models.PositiveIntegerField(help_text="the position its next move is played from")
    moves = models.JSONField(help_text="engine actions, the opponent's first")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "pk"]
        indexes = [models.Index(fields=["game", "user"], name="conditional_of_player")]

    def __str__(self) -> str:
        return f"line of {self.user} in game {self.game_id} ({len(self.moves)} moves)"


class AuditEntry(models.Model):
    """One staff or account action, kept for good: who did what to which player or game, and
    why (``games.audit.record`` writes them; nothing changes or deletes them)."""

    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="audit_entries_made",
    )
    action = models.CharField(max_length=40, db_index=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="audit_entries_about",
        help_text="the player the action was about",
    )
    game = models.ForeignKey(
        Game, on_delete=models.PROTECT, null=True, blank=True, related_name="audit_entries"
    )
    reason = models.TextField(blank=True)
    details = models.JSONField(default=dict, blank=True)
    at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-at", "-pk"]
        verbose_name_plural = "audit entries"

    def __str__(self) -> str:
        return f"{self.actor} {self.action} at {self.at:%Y-%m-%d %H:%M}"

    def save(self, *args, **kwargs) -> None:
        if self.pk is not None:
            raise ValueError("an audit entry is written once and never changed")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise ValueError("an audit entry is never deleted")


# -- players among players: follows, blocks and presence (games.community) ----------------------


class FollowQuerySet(models.QuerySet):
    def of(self, user) -> FollowQuerySet:
        """The follows ``user`` made."""
        return self.filter(follower=user)

    def followers_of(self, user) -> FollowQuerySet:
        """Who follows ``user``, less anyone blocked either way (a blocked pair hears nothing
        of each other)."""
        return self.filter(followed=user).exclude(follower__in=Block.objects.hidden_from(user))


class Follow(models.Model):
    """``follower`` follows ``followed``: sees them on the Following page, and is told when they
    open a public seek."""

    follower = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="follows"
    )
    followed = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="followers"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    objects = FollowQuerySet.as_manager()

    class Meta:
        ordering = ["followed__username"]
        constraints = [
            models.UniqueConstraint(fields=["follower", "followed"], name="one_follow_per_pair"),
        ]

    def __str__(self) -> str:
        return f"{self.follower} follows {self.followed}"


class BlockQuerySet(models.QuerySet):
    def between(self, a, b) -> BlockQuerySet:
        """The blocks between two players, made by either: one is enough to keep them apart."""
        return self.filter(Q(blocker=a, blocked=b) | Q(blocker=b, blocked=a))

    def hidden_from(self, user) -> set[int]:
        """The ids of the players ``user`` blocked or was blocked by: none of them meets
        ``user`` in a lobby, an invitation, a notification or a chat."""
        if user is None or not user.is_authenticated:
            return set()
        if self.query.has_filters():
            pairs = self.filter(Q(blocker=user) | Q(blocked=user)).values_list("blocker", "blocked")
        else:  # Block.objects: asked by every chat line's push, compiled once
            pairs = [(row.blocker_id, row.blocked_id) for row in _BLOCKS_OF.all(user.pk)]
        return {other for pair in pairs for other in pair if other != user.pk}


class Block(models.Model):
    """``blocker`` keeps ``blocked`` away. Silent: nothing the blocked player sees says so."""

    blocker = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocks"
    )
    blocked = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocked_by"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    objects = BlockQuerySet.as_manager()

    class Meta:
        ordering = ["blocked__username"]
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="one_block_per_pair"),
        ]

    def __str__(self) -> str:
        return f"{self.blocker} blocks {self.blocked}"


class Presence(models.Model):
    """When a player's sockets last said they were there: refreshed while one is open, so a
    socket that died without a goodbye stops counting after a short while."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="presence",
    )
    seen_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.user} seen at {self.seen_at:%Y-%m-%d %H:%M}"


# -- tournaments (games.tournaments) -------------------------------------------------------------


class Tournament(models.Model):
    """A round robin or a Swiss between players who joined, run by the task runner
    (``games.tournaments.running``): its games are ordinary games, each linked by a ``Pairing``.
    ``terms`` are the lobby's choices for every game of it: kind, options, clock, rated, series."""

    class Format(models.TextChoices):
        ROUND_ROBIN = "round_robin", _("round robin")
        SWISS = "swiss", _("Swiss")

    class Status(models.TextChoices):
        OPEN = "open", _("open for entries")
        RUNNING = "running", _("running")
        FINISHED = "finished", _("finished")
        CANCELLED = "cancelled", _("cancelled")

    MIN_PLAYERS = 3
    ROUND_ROBIN_MAX = 12

    name = models.CharField(max_length=80)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="tournaments_created"
    )
    official = models.BooleanField(default=False, help_text="marked by staff")
    kind = models.CharField(max_length=20)
    terms = models.JSONField(help_text="options, time_control, rated, series of every game")
    format = models.CharField(max_length=12, choices=Format.choices)
    rounds = models.PositiveSmallIntegerField(default=0, help_text="a Swiss's number of rounds")
    max_players = models.PositiveSmallIntegerField()
    starts_at = models.DateTimeField(null=True, blank=True, help_text="empty: when full")
    rating_min = models.PositiveSmallIntegerField(null=True, blank=True)
    rating_max = models.PositiveSmallIntegerField(null=True, blank=True)
    invite_only = models.BooleanField(default=False)
    invite_token = models.CharField(max_length=32, default=new_token, unique=True, editable=False)
    timeouts_allowed = models.PositiveSmallIntegerField(
        default=2, help_text="a player who loses more games than this on time is withdrawn"
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    current_round = models.PositiveSmallIntegerField(default=0)
    ended_reason = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["status", "starts_at"], name="tournament_due")]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("games:tournament", args=[self.pk])

    @property
    def swiss(self) -> bool:
        return self.format == self.Format.SWISS


class Entry(models.Model):
    """A player in a tournament: joined, perhaps withdrawn (by themselves or by their timeouts;
    they stay in the standings), and their final place."""

    class Left(models.TextChoices):
        WITHDREW = "withdrew", _("withdrew")
        TIMEOUTS = "timeouts", _("withdrawn after too many games lost on time")
        REMOVED = "removed", _("withdrawn by the admin")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournament_entries"
    )
    joined_at = models.DateTimeField(auto_now_add=True)
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    left = models.CharField(max_length=10, choices=Left.choices, blank=True)
    place = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["joined_at", "pk"]
        verbose_name_plural = "entries"
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="one_entry_per_player"),
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.tournament}"


class Pairing(models.Model):
    """One game of a tournament's round (its first game, for a series), or a bye when
    ``second`` is empty. ``score`` is the first player's (1, ½, 0), once the game (or series)
    is over; a bye's is 1. A pairing of a round robin's later rounds is played at once too."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="pairings")
    round = models.PositiveSmallIntegerField()
    first = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    second = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    game = models.OneToOneField(
        Game, on_delete=models.SET_NULL, null=True, blank=True, related_name="pairing"
    )
    score = models.DecimalField(max_digits=2, decimal_places=1, null=True, blank=True)

    class Meta:
        ordering = ["round", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "round", "first"], name="first_once_a_round"
            ),
            models.UniqueConstraint(
                fields=["tournament", "round", "second"], name="second_once_a_round"
            ),
        ]

    def __str__(self) -> str:
        return f"round {self.round} of {self.tournament}: {self.first} - {self.second or 'bye'}"

    @property
    def bye(self) -> bool:
        return self.second_id is None


class PairingChange(models.Model):
    """The admin's audit of a tournament: a cancellation, a pairing or a game replaced; who,
    why and when, and what it was before."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="changes")
    pairing = models.ForeignKey(
        Pairing, on_delete=models.SET_NULL, null=True, blank=True, related_name="changes"
    )
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    what = models.CharField(max_length=200)
    reason = models.TextField()
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["at", "pk"]

    def __str__(self) -> str:
        return f"{self.what} by {self.by} ({self.at:%Y-%m-%d %H:%M})"


# -- chat and its moderation (games.community) --------------------------------------------------


class ChatRoom(models.TextChoices):
    PLAYERS = "players", pgettext_lazy("chat room", "players")
    SPECTATORS = "spectators", pgettext_lazy("chat room", "spectators")


class ChatMessage(models.Model):
    """One line of a game's chat: the players' room is private to its two players for good; the
    spectators' room is read by anyone watching, and by the players once the game is over.
    ``quick`` keeps the key of a pre-written message (said in each reader's language) instead of
    a text; ``held`` marks a message the word filter kept from the others until a moderator
    releases it (``released``) or removes it (``removed``)."""

    MAX_LENGTH = 500

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="chat_messages")
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_messages"
    )
    room = models.CharField(max_length=10, choices=ChatRoom.choices)
    text = models.TextField(max_length=MAX_LENGTH, blank=True)
    quick = models.CharField(max_length=20, blank=True)
    held = models.BooleanField(default=False, help_text="hidden from others by the word filter")
    removed = models.BooleanField(default=False, help_text="removed by a moderator")
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["created_at", "pk"]
        indexes = [
            models.Index(fields=["game", "room", "created_at"], name="chat_of_room"),
            models.Index(fields=["author", "created_at"], name="chat_of_author"),
        ]

    def __str__(self) -> str:
        return f"{self.author} in game {self.game_id} ({self.room}): {self.text or self.quick}"

    def shown_to_others(self) -> bool:
        return not self.held and not self.removed


class ChatOff(models.Model):
    """A player who turned one game's chat off for themselves."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="chat_off")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chats_off"
    )

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "user"], name="chat_off_once")]

    def __str__(self) -> str:
        return f"chat off for {self.user} in game {self.game_id}"


class HiddenWord(models.Model):
    """A word the chat's filter holds back, beside ``settings.CHAT_HIDDEN_WORDS``."""

    word = models.CharField(max_length=60, unique=True)

    def __str__(self) -> str:
        return self.word


class SanctionQuerySet(models.QuerySet):
    def in_force(self, now: datetime | None = None) -> SanctionQuerySet:
        now = now or timezone.now()
        return self.filter(Q(ends_at__isnull=True) | Q(ends_at__gt=now), lifted=False)

    def suspending(self, user) -> SanctionQuerySet:
        """The suspensions in force on ``user``: they may neither play nor chat."""
        if user is None or not user.is_authenticated:
            return self.none()
        return self.suspensions_of(user.pk)

    def suspensions_of(self, user_id: int, now: datetime | None = None) -> SanctionQuerySet:
        """The suspensions in force at ``now`` on the user with id ``user_id``."""
        return self.in_force(now).filter(user_id=user_id, kind=Sanction.Kind.SUSPENSION)

    def muting(self, user) -> SanctionQuerySet:
        """What keeps ``user`` from chatting now: a mute, or a suspension."""
        if user is None or not user.is_authenticated:
            return self.none()
        return self.silencing_of(user.pk)

    def silencing_of(self, user_id: int, now: datetime | None = None) -> SanctionQuerySet:
        """The mutes and suspensions in force at ``now`` on the user with id ``user_id``."""
        kinds = [Sanction.Kind.MUTE, Sanction.Kind.SUSPENSION]
        return self.in_force(now).filter(user_id=user_id, kind__in=kinds)

    def told_to(self, user) -> dict[str, Sanction]:
        """What ``user``'s pages tell them, in one query kept on the user object for the rest of
        its request: their "suspension", their "silence" (a mute or a suspension) and their
        "warning" of the last week, each the one that lasts longest (or the latest warning)."""
        if user is None or not user.is_authenticated:
            return {}
        told = getattr(user, "sanctions_told", None)
        if told is not None:
            return told
        now = timezone.now()
        recent = Q(kind=Sanction.Kind.WARNING, created_at__gt=now - timedelta(days=7))
        rows = self.filter(user=user).filter(recent | ~Q(kind=Sanction.Kind.WARNING))
        told = {}
        for row in rows.in_force(now).order_by(F("ends_at").desc(nulls_first=True), "-pk"):
            if row.kind == Sanction.Kind.WARNING:
                told.setdefault("warning", row)
                continue
            told.setdefault("silence", row)
            if row.kind == Sanction.Kind.SUSPENSION:
                told.setdefault("suspension", row)
        user.sanctions_told = told
        return told

    def longest(self) -> Sanction | None:
        """The one that lasts longest (one without an end first)."""
        return self.longest_first().first()

    def longest_first(self) -> SanctionQuerySet:
        return self.order_by(F("ends_at").desc(nulls_first=True), "-pk")


class Sanction(models.Model):
    """A moderator's decision on a player: a warning, a mute (no chat anywhere) or a suspension
    (no play and no chat), with the reason they are told, until ``ends_at`` (none: until
    lifted)."""

    class Kind(models.TextChoices):
        WARNING = "warning", pgettext_lazy("sanction", "warning")
        MUTE = "mute", pgettext_lazy("sanction", "mute")
        SUSPENSION = "suspension", pgettext_lazy("sanction", "suspension")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="sanctions"
    )
    kind = models.CharField(max_length=10, choices=Kind.choices)
    reason = models.CharField(max_length=500, help_text="told to the player")
    moderator = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name="sanctions_given",
    )
    report = models.ForeignKey(
        "Report", on_delete=models.SET_NULL, null=True, blank=True, related_name="sanctions"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    ends_at = models.DateTimeField(null=True, blank=True)
    lifted = models.BooleanField(default=False)

    objects = SanctionQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.kind} of {self.user}"

    def told(self) -> str:
        """What the player is told of it, in the active language and time zone."""
        said = {"reason": self.reason}
        if self.ends_at is not None:
            said["until"] = formats.date_format(timezone.localtime(self.ends_at), "DATETIME_FORMAT")
        if self.kind == self.Kind.SUSPENSION:
            if self.ends_at is None:
                return (
                    gettext(
                        "Your account is suspended until a moderator lifts it: %(reason)s. "
                        "You cannot play or chat."
                    )
                    % said
                )
            return (
                gettext(
                    "Your account is suspended until %(until)s: %(reason)s. "
                    "You cannot play or chat until then."
                )
                % said
            )
        if self.kind == self.Kind.MUTE:
            if self.ends_at is None:
                return (
                    gettext(
                        "A moderator muted you until they lift it: %(reason)s. You cannot chat."
                    )
                    % said
                )
            return (
                gettext(
                    "A moderator muted you until %(until)s: %(reason)s. You cannot chat until then."
                )
                % said
            )
        return gettext("A moderator warned you: %(reason)s.") % said


class Report(models.Model):
    """A player's report of a chat message, a game or a player (or the word filter's, with no
    reporter), open until a moderator decides."""

    class Reason(models.TextChoices):
        ABUSE = "abuse", _("Insults or harassment")
        SPAM = "spam", _("Spam or advertising")
        CHEATING = "cheating", _("Cheating or help from outside")
        STALLING = "stalling", _("Stalling or leaving games")
        OTHER = "other", _("Something else")
        FILTER = "filter", _("Held by the word filter")

    class Outcome(models.TextChoices):
        DISMISSED = "dismissed", _("dismissed")
        WARNED = "warned", _("warned")
        MUTED = "muted", _("muted")
        SUSPENDED = "suspended", _("suspended")
        RELEASED = "released", _("message released")
        REMOVED = "removed", _("message removed")

    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="reports_made",
    )
    reported = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="reports_against",
        help_text="the player reported; none for a game reported by a watcher",
    )
    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, null=True, blank=True, related_name="reports"
    )
    message = models.ForeignKey(
        ChatMessage, on_delete=models.SET_NULL, null=True, blank=True, related_name="reports"
    )
    reason = models.CharField(max_length=10, choices=Reason.choices)
    text = models.TextField(max_length=1000, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    outcome = models.CharField(max_length=10, choices=Outcome.choices, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="reports_decided",
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    decision_reason = models.CharField(max_length=500, blank=True)

    class Meta:
        ordering = ["created_at", "pk"]

    def __str__(self) -> str:
        return f"report {self.pk} on {self.reported or self.game}"

    @property
    def is_open(self) -> bool:
        return not self.outcome


class Analysis(models.Model):
    """The computer's analysis of a finished game (``games.play.analysis``): asked for by any
    signed-in player, made once per game and version of the analysis on the compute queue.

    ``moves`` holds one entry per action of the log: ``{"seq", "player", "before", "after",
    "drop", "preferred"}``, the chances (0 to 100) of the player who acted, by the move the
    search preferred and by the move played, and the preferred move (an engine action, or None
    when it is the one played). Nothing in it depends on a secret the player who acted could
    not see then."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("queued")
        RUNNING = "running", _("running")
        DONE = "done", _("done")
        FAILED = "failed", _("failed")

    WAITING = (Status.QUEUED, Status.RUNNING)

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="analyses")
    version = models.PositiveSmallIntegerField(help_text="games.bots.ANALYSIS_VERSION")
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="analyses_asked",
        help_text="who asked for it last (a retry counts as asking)",
    )
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.QUEUED)
    simulations = models.PositiveIntegerField(help_text="the search's budget for each position")
    moves = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    asked_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)

    class Meta:
        verbose_name_plural = "analyses"
        constraints = [
            models.UniqueConstraint(fields=["game", "version"], name="one_analysis_per_version"),
        ]
        indexes = [models.Index(fields=["requested_by", "status"], name="analyses_waiting")]

    def __str__(self) -> str:
        return f"analysis {self.version} of game {self.game_id} ({self.status})"

    @property
    def seconds(self) -> float | None:
        """How long its last attempt took, once it is done."""
        if self.started_at is None or self.finished_at is None:
            return None
        return round((self.finished_at - self.started_at).total_seconds(), 1)


# Asked of every chat line's push, for each of its readers (BlockQuerySet.hidden_from).
_BLOCKS_OF = Compiled(
    lambda user_id: Block.objects.filter(Q(blocker_id=user_id) | Q(blocked_id=user_id))
)
