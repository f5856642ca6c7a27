"""The game page's chat (templates/games/_chat.html) and the report form.

A message is posted by HTMX, which swaps in the emptied form (the message itself arrives over
the game's socket, and with the answer for a page whose socket lags); without JavaScript the
form posts and comes back to the game (Post/Redirect/Get). Whatever is refused says why and
stores nothing.
"""

from __future__ import annotations

import math

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from games.community import chat, floods, moderation
from games.models import ChatMessage, ChatRoom, Game, open_account
from games.web import errors
from games.web.validation import body_at_most

# A full message with every character four bytes of UTF-8, each sent as %XX, and the form's token.
CHAT_BODY_MAX = ChatMessage.MAX_LENGTH * 4 * 3 + 4096


def _game_for(request: HttpRequest, pk: int) -> Game:
    game = errors.game_or_404(request, pk)
    if game.private and game.seat_of(request.user) is None:
        raise Http404("no such game")  # a private game does not exist for a stranger
    return game


# A player refused for writing too fast, or whose line just used up their bucket: their posts are
# answered at once, before anything is read or drawn, until they may write again (a flood costs
# the site little). The cache says it to every process and every session of the player; this
# process also remembers the session, whose next posts by htmx are then answered before the
# session is even read (games.web.middleware.ChatFloodGate).
TOLD_TO_WAIT = "chat-wait:{}"


@require_POST
@login_required
@body_at_most(CHAT_BODY_MAX)
def post(request: HttpRequest, pk: int) -> HttpResponse:
    waiting = cache.get(TOLD_TO_WAIT.format(request.user.pk))
    if waiting is not None:
        return _still_waiting(request, pk, waiting)
    game = _game_for(request, pk)
    room = request.POST.get("room", "")
    if room not in ChatRoom.values or not chat.may_write(game, request.user, room):
        raise PermissionDenied("this chat is not one this user may write in")
    text, quick = request.POST.get("text", ""), request.POST.get("quick", "")
    try:
        message = chat.post(game, request.user, room, text=text, quick=quick)
    except chat.ChatRefused as refusal:
        if refusal.wait > 0:
            _tell_to_wait(request, refusal.wait, refusal.message)
        return _refused(request, game, room, text, refusal)
    # A line that emptied the player's bucket: they are told so under the form, and told to
    # wait at once, so that their next posts meanwhile cost nothing (not even a refusal).
    wait = chat.wait_before_next(request.user)
    if wait > 0:
        _tell_to_wait(request, wait, chat.too_fast(wait))
    if request.htmx:
        return _form(request, game, room, sent=message, note=chat.next_in(wait) if wait else "")
    return redirect(f"{game.get_absolute_url()}#chat")


def _tell_to_wait(request: HttpRequest, seconds: float, why: str) -> None:
    """Every process, and every session of the player, through the cache; this process, before
    the session is read, by the session's cookie (``floods``). Both for the whole seconds that
    ``why`` names ("Wait 2 seconds"), so that neither lets a post through before the other."""
    seconds = math.ceil(seconds)
    cache.set(TOLD_TO_WAIT.format(request.user.pk), why, seconds)
    floods.CHAT_POSTS.tell(request.COOKIES.get(settings.SESSION_COOKIE_NAME), seconds, why)


def _form(request, game, room, text="", error="", sent=None, status=200, note="") -> HttpResponse:
    """The room's form, for HTMX to swap in place of the one posted."""
    form = {
        "room": room,
        "text": text,
        "error": error,
        "note": note,
        "most": ChatMessage.MAX_LENGTH,
        "quick": list(chat.QUICK.items()) if room == ChatRoom.PLAYERS else [],
    }
    context = {"game": game, "r": form, "sent": sent, "user": request.user}
    return render(request, "games/_chat.html#form", context, status=status)


def _refused(request, game, room, text, refusal: chat.ChatRefused) -> HttpResponse:
    """The form again with the text and why; without JavaScript, back to the game saying why.
    The page's htmx swaps 400 and 403 answers, not 429's: a limit reached answers 400 to it."""
    if request.htmx:
        status = 400 if refusal.status == 429 else refusal.status
        return _form(request, game, room, text=text, error=refusal.message, status=status)
    messages.error(request, refusal.message)
    return redirect(f"{game.get_absolute_url()}#chat")


def _still_waiting(request: HttpRequest, pk: int, reason: str) -> HttpResponse:
    """A post while the player is told to wait: nothing is sent. htmx swaps nothing on a 204,
    so the form keeps what was typed and the reason it already shows; without JavaScript, back
    to the game saying why."""
    if request.htmx:
        return HttpResponse(status=204)
    messages.error(request, reason)
    return redirect(reverse("games:detail", args=[pk]) + "#chat")


@require_POST
@login_required
def turn(request: HttpRequest, pk: int) -> HttpResponse:
    """A player turns this game's chat off (or on again) for themselves."""
    game = _game_for(request, pk)
    if game.seat_of(request.user) is None:
        raise PermissionDenied("only the two players of a game turn its chat off")
    on = request.POST.get("on") == "1"
    chat.turn_chat(game, request.user, on)
    if on:
        messages.info(request, _("This game's chat is on again."))
    else:
        messages.info(request, _("This game's chat is off for you: you will see none of it."))
    return redirect(f"{game.get_absolute_url()}#chat")


@require_http_methods(["GET", "POST"])
@login_required
@body_at_most(moderation.MAX_TEXT * 4 * 3 + 4096)
def report(request: HttpRequest, pk: int) -> HttpResponse:
    """Report a chat message, a player of the game, or the game."""
    game = _game_for(request, pk)
    asked = request.POST if request.method == "POST" else request.GET
    try:
        subject = moderation.subject_of(
            game, request.user, asked.get("message", ""), asked.get("player", "")
        )
    except moderation.ReportRefused as refusal:
        if refusal.status == 403:
            raise PermissionDenied(refusal.message) from None
        raise Http404(refusal.message) from None
    others = [
        p
        for p in (game.seat0, game.seat1)
        if p is not None and p != request.user and p != subject.player and not subject.message
    ]
    return _report_form(request, subject, game.get_absolute_url(), others)


@require_http_methods(["GET", "POST"])
@login_required
@body_at_most(moderation.MAX_TEXT * 4 * 3 + 4096)
def report_player(request: HttpRequest, username: str) -> HttpResponse:
    """Report a player from their profile: what they do outside one game (their name, their
    ways across games)."""
    person = open_account(username)
    if person is None:
        return errors.not_found_page(request, errors.no_player(username))
    back = reverse("profile", args=[person.username])
    try:
        subject = moderation.player_subject(request.user, person)
    except moderation.ReportRefused as refusal:
        messages.error(request, refusal.message)
        return redirect(back)
    return _report_form(request, subject, back)


def _report_form(request: HttpRequest, subject, back: str, others=()) -> HttpResponse:
    """The report form about ``subject`` (GET), or the report stored and the reporter sent
    ``back`` with a thank-you (POST); a refused report shows the form again with the reason."""
    context = {
        "game": subject.game,
        "subject": subject,
        "reasons": moderation.REPORTABLE,
        "others": others,
        "back": back,
    }
    if request.method == "GET":
        return render(request, "games/report.html", context)
    reason, text = request.POST.get("reason", ""), request.POST.get("text", "")
    try:
        moderation.report(request.user, subject, reason, text)
    except moderation.ReportRefused as refusal:
        context.update(error=refusal.message, chosen=reason, text=text)
        return render(request, "games/report.html", context, status=refusal.status)
    messages.info(request, _("Thank you: a moderator will look at your report."))
    return redirect(back)
