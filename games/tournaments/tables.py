"""A tournament as its page shows it: the standings with their tiebreak, the rounds with their
games, and what happens next, in the reader's language."""

from __future__ import annotations

from fractions import Fraction

from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import kinds
from games.clock import TimeControl
from games.models import Entry, Game, Tournament, player_name
from games.tournaments import pairing, running


def points(value: Fraction) -> str:
    """1½, ½, 2: a score as a chess table writes it."""
    whole, half = divmod(Fraction(value) * 2, 2)
    if not half:
        return str(int(whole))
    return f"{int(whole)}½" if whole else "½"


def tiebreak_name(tournament: Tournament) -> str:
    return _("Buchholz") if tournament.swiss else _("Sonneborn–Berger")  # noqa: RUF001


def standings(tournament: Tournament) -> list[dict]:
    entries = {e.user_id: e for e in tournament.entries.select_related("user")}
    table = pairing.standings(list(entries), running.pure_games(tournament), tournament.swiss)
    return [
        {
            "place": line.place,
            "entry": entries[line.player],
            "user": entries[line.player].user,
            "points": points(line.points),
            "tiebreak": points(line.tiebreak),
            "games": line.games,
        }
        for line in table
    ]


def rounds(tournament: Tournament) -> list[dict]:
    by_round: dict[int, list] = {}
    made = tournament.pairings.select_related("first", "second", "game")
    for one in made.order_by("round", "pk"):
        by_round.setdefault(one.round, []).append(
            {
                "pairing": one,
                "score": None if one.score is None else _score_line(Fraction(str(one.score))),
            }
        )
    return [{"number": number, "pairings": rows} for number, rows in sorted(by_round.items())]


def _score_line(first: Fraction) -> str:
    return f"{points(first)}–{points(1 - first)}"  # noqa: RUF001 - a score is written so


def terms(tournament: Tournament) -> str:
    """The games' terms in a line: "Basilica, 2022 edition; 3 days per move; rated"."""
    kind = kinds.get(tournament.kind)
    said = [kind.title, TimeControl.parse(tournament.terms["time_control"]).label]
    series = tournament.terms.get("series")
    if series:
        said.append(_("each pairing a series of %(count)s games") % {"count": series})
    said.append(_("rated") if tournament.terms.get("rated") else _("casual"))
    return "; ".join(str(s) for s in said)


def when(moment) -> str:
    return formats.date_format(timezone.localtime(moment), "DATETIME_FORMAT")


def next_step(tournament: Tournament) -> str:
    """What happens next, in a sentence."""
    status = tournament.status
    if status == Tournament.Status.OPEN:
        if tournament.starts_at is None:
            return _("Starts as soon as %(count)s players have joined (%(joined)s so far).") % {
                "count": tournament.max_players,
                "joined": tournament.entries.count(),
            }
        return _("Starts at %(when)s, if at least three players have joined by then.") % {
            "when": when(tournament.starts_at)
        }
    if status == Tournament.Status.RUNNING:
        if not tournament.swiss:
            return _(
                "Every game is being played at once; the tournament ends when the last one "
                "finishes."
            )
        if tournament.current_round < tournament.rounds:
            return _(
                "Round %(next)s of %(rounds)s starts when every game of round %(round)s has "
                "finished."
            ) % {
                "next": tournament.current_round + 1,
                "rounds": tournament.rounds,
                "round": tournament.current_round,
            }
        return _("This is the last round: the tournament ends when its games finish.")
    reason = _(tournament.ended_reason) % {"round": tournament.current_round + 1}
    if status == Tournament.Status.CANCELLED:
        return reason or _("This tournament was cancelled.")
    winners = tournament.entries.filter(place=1).select_related("user")
    names = ", ".join(player_name(w.user) for w in winners)
    return ngettext(
        "Finished. The winner is %(names)s. %(reason)s",
        "Finished. The winners are %(names)s. %(reason)s",
        len(winners),
    ) % {"names": names, "reason": reason}


def played_by(person, viewer=None) -> list[dict]:
    """The tournaments ``person`` has played or plays in, with their place once it is over;
    one by invitation only is listed to them and the staff alone."""
    rows = Entry.objects.filter(user=person)
    own = viewer is None or viewer.pk == person.pk or getattr(viewer, "is_staff", False)
    if not own:
        rows = rows.filter(tournament__invite_only=False)
    rows = (
        rows.exclude(tournament__status=Tournament.Status.CANCELLED)
        .select_related("tournament")
        .order_by("-tournament__created_at")
    )
    return [
        {"tournament": e.tournament, "place": e.place, "players": e.tournament.entries.count()}
        for e in rows
    ]


def lists() -> dict:
    base = Tournament.objects.select_related("created_by").filter(invite_only=False)
    return {
        "upcoming": base.filter(status=Tournament.Status.OPEN).order_by("starts_at", "pk"),
        "running": base.filter(status=Tournament.Status.RUNNING).order_by("-started_at"),
        "finished": base.filter(status=Tournament.Status.FINISHED).order_by("-finished_at")[:20],
    }


def game_status(game: Game | None) -> str:
    if game is None:
        return ""
    return game.get_status_display()
