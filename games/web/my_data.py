"""A player's own data, to download from Settings as one JSON file: their account, their
settings, their games (with the addresses of their records), their private notes, their prepared
lines still waiting, their ratings and each game's change of them, their vacations, the browsers
they get notifications in, the emails sent to them and the records of their logins (when, from
which address and browser; a failed one, when only). Only what is theirs: never another
player's notes or lines, never a game's seed or invitation secret, never the secret of their
calendar feed (a file downloaded is a file that gets passed around)."""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.http import content_disposition_header
from django.views.decorators.http import require_GET

from basilica_site.compression import never_compressed
from games import upkeep
from games.community import chat, relations
from games.models import (
    ConditionalLine,
    Game,
    GameNote,
    Notification,
    PlayerSettings,
    PushDevice,
    Rating,
    RatingChange,
    Vacation,
    player_name,
)

# Settings that are keys rather than choices, and the row's own bookkeeping.
NOT_EXPORTED = {"id", "user", "calendar_token"}


@require_GET
@login_required
@never_compressed  # the player's email, notes and prepared lines
def download(request: HttpRequest) -> HttpResponse:
    user = request.user
    data = {
        "exported_at": _moment(timezone.now()),
        "account": {
            "username": user.username,
            "email": user.email,
            "date_joined": _moment(user.date_joined),
        },
        "settings": settings_of(user),
        "games": [_game(request, game, user) for game in _games_of(user)],
        "notes": [
            {"game": note.game_id, "text": note.text, "updated_at": _moment(note.updated_at)}
            for note in GameNote.objects.filter(user=user).order_by("game_id")
        ],
        "prepared_lines": [
            {"game": line.game_id, "moves": line.moves, "created_at": _moment(line.created_at)}
            for line in ConditionalLine.objects.filter(user=user).order_by("game_id", "pk")
        ],
        "chat": chat.messages_written_by(user),
        "logins": [{**record, "at": _moment(record["at"])} for record in upkeep.logins_of(user)],
        "relations": relations.relations_of(user),
        **_standing(user),
        **_correspondence(user),
    }
    response = JsonResponse(data, json_dumps_params={"indent": 2, "ensure_ascii": False})
    filename = f"basilica-{user.username}.json"
    response["Content-Disposition"] = content_disposition_header(True, filename)
    response["Cache-Control"] = "private, no-store"
    return response


def settings_of(user) -> dict:
    row = PlayerSettings.of(user)
    return {
        field.name: _value(getattr(row, field.attname))
        for field in PlayerSettings._meta.concrete_fields
        if field.name not in NOT_EXPORTED
    }


def _games_of(user):
    return Game.objects.involving(user).with_players().order_by("created_at")


def _game(request: HttpRequest, game: Game, user) -> dict:
    seat = game.seat_of(user)
    opponent = game.player(1 - seat)
    shown = game.status != Game.Status.CANCELLED  # a cancelled game has no page
    return {
        "id": game.pk,
        "kind": game.kind,
        "opponent": player_name(opponent) if opponent else None,
        "status": game.status,
        "result": game.result_for(user) or None,
        "created_at": _moment(game.created_at),
        "started_at": _moment(game.started_at),
        "finished_at": _moment(game.finished_at),
        "url": request.build_absolute_uri(game.get_absolute_url()) if shown else None,
        "record": _record_url(request, game) if game.started_at else None,
    }


def _record_url(request: HttpRequest, game: Game) -> str:
    return request.build_absolute_uri(reverse("games:record-text", args=[game.pk]))


def _standing(user) -> dict:
    return {
        "ratings": [
            {
                "kind": r.kind,
                "speed": r.speed,
                "rating": round(r.rating),
                "deviation": round(r.deviation),
                "games": r.games,
            }
            for r in Rating.objects.filter(user=user).order_by("kind", "speed")
        ],
        "rating_changes": [
            {
                "game": c.game_id,
                "kind": c.kind,
                "speed": c.speed,
                "score": c.score,
                "rating_before": round(c.rating_before),
                "rating_after": round(c.rating_after),
                "at": _moment(c.at),
            }
            for c in RatingChange.objects.filter(user=user).order_by("at", "pk")
        ],
    }


def _correspondence(user) -> dict:
    """Vacations, browsers (named, never their push keys) and emails sent (never their text)."""
    return {
        "vacations": [
            {"starts_at": _moment(v.starts_at), "ends_at": _moment(v.ends_at), "days": v.days}
            for v in Vacation.objects.filter(user=user).order_by("starts_at")
        ],
        "browsers": [
            {"name": d.name, "created_at": _moment(d.created_at)}
            for d in PushDevice.objects.filter(user=user).order_by("created_at")
        ],
        "emails": [
            {
                "kind": n.kind,
                "game": n.game_id,
                "created_at": _moment(n.created_at),
                "outcome": n.outcome,
            }
            for n in Notification.objects.filter(user=user, channel="email").order_by("created_at")
        ],
    }


def _moment(moment: datetime | None) -> str | None:
    """A time in the player's own zone, with its offset."""
    if moment is None:
        return None
    return timezone.localtime(moment).isoformat(timespec="seconds")


def _value(value):
    return _moment(value) if isinstance(value, datetime) else value
