"""A game's record: JSON to download, keep or replay, and text to read in the browser (or
download). Each goes through the game page's rule of who may see a game."""

from __future__ import annotations

import json
import logging

from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods

from games.archive import records
from games.models import Action, Game
from games.web import errors
from games.web.ratelimit import limited

log = logging.getLogger(__name__)


def _watchable(request: HttpRequest, pk: int) -> Game:
    """The game, if this viewer may watch it; a 404 otherwise, as for its page: a private game
    does not exist for a stranger, and a game not yet begun has no record."""
    game = errors.game_or_404(request, pk)
    if game.status in (Game.Status.OPEN, Game.Status.CANCELLED):
        raise Http404("this game has no record")
    return game


def _attachment(body: str, content_type: str, filename: str, inline: bool = False) -> HttpResponse:
    """The record as a file named ``filename``: downloaded, or shown in the browser when
    ``inline`` (the name is then what the browser saves it as)."""
    response = HttpResponse(body, content_type=f"{content_type}; charset=utf-8")
    disposition = "inline" if inline else "attachment"
    response["Content-Disposition"] = f'{disposition}; filename="{filename}"'
    return response


@require_GET
@never_cache  # a running game's record grows with every move
def record_json(request: HttpRequest, pk: int) -> HttpResponse:
    game = _watchable(request, pk)
    body = json.dumps(records.export(game), indent=1, ensure_ascii=False)
    return _attachment(body, "application/json", f"game-{game.pk}.json")


@require_GET
@never_cache
def record_text(request: HttpRequest, pk: int) -> HttpResponse:
    """The log to read, shown in the browser; ``?download=1`` downloads it instead."""
    game = _watchable(request, pk)
    inline = request.GET.get("download") != "1"
    return _attachment(records.text_log(game), "text/plain", f"game-{game.pk}.txt", inline)


# -- importing a record to study it --------------------------------------------------------------

IMPORT_MAX_BYTES = 512 * 1024  # a record of 2,000 actions is about 200 KB


@require_http_methods(["GET", "POST"])
@login_required
@limited("create_game")
def import_record(request: HttpRequest) -> HttpResponse:
    """Load a record into the replay viewer: it becomes a game to study, never a rated one."""
    if request.method == "GET":
        return render(request, "games/import.html", {})
    upload = request.FILES.get("record")
    text = upload.read(IMPORT_MAX_BYTES + 1) if upload else request.POST.get("text", "")
    if len(text) > IMPORT_MAX_BYTES:
        return _refused(
            request, _("That record is over %(size)d KB.") % {"size": IMPORT_MAX_BYTES // 1024}
        )
    try:
        data = json.loads(text or "null")
    except UnicodeDecodeError:
        return _refused(request, _("That file is not a game record: a record is text in UTF-8."))
    except json.JSONDecodeError as error:
        return _refused(
            request,
            _("That is not a game record: its JSON goes wrong at line %(line)s, column %(column)s.")
            % {"line": error.lineno, "column": error.colno},
        )
    except (ValueError, RecursionError):  # a number of thousands of digits, endless nesting
        return _refused(request, _("That is not a game record: no record holds such JSON."))
    try:
        record = records.read(data)
        if record.result is None:
            raise records.RecordError(
                _("only the record of a game that is over can be imported: this one is still going")
            )
        records.replay(record)
    except records.RecordError as error:
        return _refused(request, _("That record cannot be replayed: %(why)s") % {"why": error})
    except (ValueError, RecursionError):
        # Something records.read let through: refused all the same, and logged to be read better.
        log.exception("an imported record failed outside the checks of its reading")
        return _refused(request, _("That record cannot be replayed."))
    game = _store(record, request.user)
    return redirect("games:replay", pk=game.pk)


def _refused(request: HttpRequest, message: str, status: int = 400) -> HttpResponse:
    return render(request, "games/import.html", {"error": message}, status=status)


def _store(record: records.Record, user) -> Game:
    """The record as a finished game without seats, its actions appended as the service would."""
    result = record.result
    with transaction.atomic():
        game = Game.objects.create(
            created_by=user,
            kind=record.kind,
            edition=record.options.to_json().get("edition", ""),
            options=record.options.to_json(),
            seed=record.seed or 0,
            engine_version=record.engine_version,
            status=Game.Status.FINISHED,
            seq=len(record.actions),
            winners=list(result["winners"]),
            scores=list(result["scores"]),
            termination=result["termination"],
            imported=True,
            imported_names=list(record.players),
            finished_at=timezone.now(),
        )
        Action.objects.bulk_create(
            Action(game=game, seq=index, player=seat, user=user, data=action)
            for index, (seat, action) in enumerate(
                zip(record.seats, record.actions, strict=True), start=1
            )
        )
    return game
