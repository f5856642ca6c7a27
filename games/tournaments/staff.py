"""The admin's hand in a tournament, each step with a reason kept in its audit
(``PairingChange``: who, why, when, what it was before).

- cancel: the tournament ends with no result; its games still being played are aborted by the
  referee's service (no result, no rating change), as an abort would leave them;
- replace a pairing of a round not yet started (a Swiss's next round is only paired when it
  starts, so this is a pairing whose game has not begun: none is, once paired) or the game of a
  running round: the old game, if in play, is aborted with no result and a new game starts
  between the players named;
- withdraw a player (one who no longer plays, or broke the rules): before the start their entry
  is struck out; once running, as a withdrawal of their own (their games in play forfeited,
  paired no more, kept in the standings), marked as the admin's.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from games import audit
from games.models import Entry, Game, Pairing, PairingChange, Tournament, player_name
from games.play import referee
from games.tournaments import results, running

CANCELLED = gettext_noop("Cancelled by the admin.")  # said in the reader's language by the page


class StaffRefused(ValueError):
    """A change the admin may not make; the message says why."""


def _reason(by, reason: str) -> str:
    if not getattr(by, "is_staff", False):
        raise StaffRefused(_("Only the admin may change a tournament."))
    reason = (reason or "").strip()
    if not reason:
        raise StaffRefused(_("Write the reason: it is kept with the change."))
    return reason


def cancel(tournament: Tournament, by, reason: str) -> Tournament:
    reason = _reason(by, reason)
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if tournament.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
            raise StaffRefused(_("This tournament is over already."))
        for game in results.games_of(tournament).filter(status=Game.Status.ACTIVE):
            referee.abort_game(game, by, reason)
        tournament.status = Tournament.Status.CANCELLED
        tournament.ended_reason = CANCELLED
        tournament.finished_at = timezone.now()
        tournament.save()
        PairingChange.objects.create(
            tournament=tournament, by=by, what="cancelled the tournament", reason=reason
        )
        audit.record(by, "tournament.cancel", reason=reason, tournament=tournament.pk)
    return tournament


def replace(made: Pairing, first, second, by, reason: str) -> Pairing:
    """Pair ``first`` (who moves first) with ``second`` in ``made``'s place: its game, if in
    play, aborted with no result, and a new one started. Only a pairing whose result is not in
    yet, of a running tournament, between two of its players."""
    reason = _reason(by, reason)
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=made.tournament_id)
        made = Pairing.objects.select_for_update().get(pk=made.pk)
        if tournament.status != Tournament.Status.RUNNING:
            raise StaffRefused(_("Only a running tournament's pairings can be replaced."))
        if made.score is not None and not made.bye:
            raise StaffRefused(_("This game is over: its result stands."))
        players = set(tournament.entries.values_list("user_id", flat=True))
        if first.pk == second.pk or not {first.pk, second.pk} <= players:
            raise StaffRefused(_("Pair two different players of this tournament."))
        others = tournament.pairings.filter(round=made.round).exclude(pk=made.pk)
        busy = set(others.values_list("first_id", flat=True)) | set(
            others.values_list("second_id", flat=True)
        )
        if {first.pk, second.pk} & busy:
            raise StaffRefused(_("One of them already plays another game of this round."))
        before = str(made)
        if made.game is not None and made.game.status == Game.Status.ACTIVE:
            referee.abort_game(made.game, by, reason)
        made.first, made.second, made.score = first, second, None
        made.game = None
        made.save()
        made.game = running.start_game(tournament, first, second)
        made.save(update_fields=["game"])
        PairingChange.objects.create(
            tournament=tournament,
            pairing=made,
            by=by,
            what=f"replaced {before} by {made}",
            reason=reason,
        )
        audit.record(
            by,
            "tournament.replace",
            game=made.game,
            reason=reason,
            tournament=tournament.pk,
            before=before,
            after=str(made),
        )
    return made


def withdraw(tournament: Tournament, player, by, reason: str) -> None:
    """Withdraw ``player`` from ``tournament`` by the admin's hand (see the module's docstring)."""
    reason = _reason(by, reason)
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        entry = tournament.entries.filter(user=player).first()
        if entry is None:
            raise StaffRefused(_("That player is not in this tournament."))
        if tournament.status == Tournament.Status.OPEN:
            entry.delete()
        elif tournament.status != Tournament.Status.RUNNING:
            raise StaffRefused(_("This tournament is over already."))
        elif entry.withdrawn_at is not None:
            raise StaffRefused(_("That player has left this tournament already."))
        else:
            running.withdraw_locked(tournament, entry, Entry.Left.REMOVED, timezone.now())
        PairingChange.objects.create(
            tournament=tournament,
            by=by,
            what=f"withdrew {player_name(player)}",
            reason=reason,
        )
        audit.record(
            by, "tournament.withdraw", user=player, reason=reason, tournament=tournament.pk
        )
