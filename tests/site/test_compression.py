"""Pages, partials and answers reach a browser compressed: brotli when it offers it, gzip when it
offers only that, as they are otherwise; the responses that hold a secret beside text another
may choose never are (BREACH, basilica_site.compression)."""

from __future__ import annotations

import asyncio
import gzip
import json
import re

import brotli
import icalendar
import pytest
from django.conf import settings
from django.http import HttpResponse, StreamingHttpResponse
from django.test import Client, RequestFactory
from django.urls import reverse
from factories import (
    client_for,
    finished_game,
    first_legal,
    make_staff,
    make_user,
    open_game,
    staff_client_for,
    started_game,
)
from factories import play as play_moves

from basilica_site.compression import (
    CompressedResponses,
    brotli_compress,
    encodings_accepted,
    never_compressed,
)

pytestmark = pytest.mark.django_db

BROWSER = {"HTTP_ACCEPT_ENCODING": "gzip, deflate, br, zstd"}  # what Chrome and Firefox send
GZIP_ONLY = {"HTTP_ACCEPT_ENCODING": "gzip, deflate"}
HTMX = {"HTTP_HX_REQUEST": "true"}
CSRF_INPUT = re.compile(rb'name="csrfmiddlewaretoken" value="[^"]+"')
CSRF_HEADER = re.compile(rb'"X-CSRFToken": ?"[^"]+"')


def decoded(response) -> bytes:
    """The body a browser reads, whatever the coding it came in."""
    body = b"".join(response.streaming_content) if response.streaming else response.content
    coding = response.get("Content-Encoding")
    if coding == "br":
        return brotli.decompress(body)
    if coding == "gzip":
        return gzip.decompress(body)
    assert coding is None, coding
    return body


def without_tokens(body: bytes) -> bytes:
    """A page less its CSRF tokens, which Django masks anew in every response."""
    return CSRF_HEADER.sub(b"", CSRF_INPUT.sub(b"", body))


def varies_by_encoding(response) -> bool:
    return "accept-encoding" in response.get("Vary", "").lower()


@pytest.fixture
def game():
    return started_game()


@pytest.fixture
def client(game):
    return client_for(game.seat0)


# -- pages, partials and answers ------------------------------------------------------------------


def test_a_browser_that_offers_brotli_gets_the_game_page_in_brotli(game, client):
    plain = client.get(game.get_absolute_url())
    sent = client.get(game.get_absolute_url(), **BROWSER)
    assert sent.status_code == 200
    assert sent["Content-Encoding"] == "br"
    assert varies_by_encoding(sent)
    assert int(sent["Content-Length"]) == len(sent.content)
    assert len(sent.content) < len(plain.content) / 3
    assert without_tokens(decoded(sent)) == without_tokens(plain.content)
    assert "Your turn" in decoded(sent).decode()


def test_a_browser_that_offers_only_gzip_gets_gzip(game, client):
    plain = client.get(game.get_absolute_url())
    sent = client.get(game.get_absolute_url(), **GZIP_ONLY)
    assert sent["Content-Encoding"] == "gzip"
    assert varies_by_encoding(sent)
    assert without_tokens(decoded(sent)) == without_tokens(plain.content)


def test_a_client_that_offers_nothing_gets_the_page_as_it_is_and_caches_keep_them_apart(
    game, client
):
    sent = client.get(game.get_absolute_url())
    assert not sent.has_header("Content-Encoding")
    assert varies_by_encoding(sent)
    assert b"<html" in sent.content


@pytest.mark.parametrize(
    ("offered", "coding"),
    [
        ("br", "br"),
        ("gzip;q=1.0, br;q=0.5", "br"),  # both allowed: the smaller one
        ("gzip, br;q=0", "gzip"),
        ("BR", "br"),
        ("*", "br"),
        ("*, br;q=0", "gzip"),
        ("identity", None),
        ("gzip;q=0, br;q=0", None),
        ("deflate", None),
    ],
)
def test_the_coding_follows_what_the_client_allows(client, offered, coding):
    sent = client.get(reverse("rules"), HTTP_ACCEPT_ENCODING=offered)
    assert sent.get("Content-Encoding") == coding


def test_an_htmx_partial_comes_in_brotli_and_still_varies_by_htmx(game, client):
    sent = client.get(f"{game.get_absolute_url()}?partial=board", **HTMX, **BROWSER)
    assert sent.status_code == 200
    assert sent["Content-Encoding"] == "br"
    vary = sent["Vary"].lower()
    assert "accept-encoding" in vary
    assert "hx-request" in vary
    assert b"<html" not in decoded(sent)


def test_a_moves_answer_comes_in_brotli(game, client):
    answer = client.post(
        f"{game.get_absolute_url()}act/",
        {"action": json.dumps(first_legal(game)), "seq": game.seq},
        **HTMX,
        **BROWSER,
    )
    assert answer.status_code == 200
    assert answer["Content-Encoding"] == "br"
    game.refresh_from_db()
    assert game.seq == 1
    assert b'id="board"' in decoded(answer) or b"board" in decoded(answer)


def test_a_json_record_comes_in_brotli_and_reads_as_the_same_json(game, client):
    address = reverse("games:record-json", args=[game.pk])
    plain = client.get(address)
    sent = client.get(address, **BROWSER)
    assert sent["Content-Encoding"] == "br"
    assert json.loads(decoded(sent)) == json.loads(plain.content)


def test_the_rules_page_comes_at_a_fraction_of_its_size():
    plain = Client().get(reverse("rules"))
    sent = Client().get(reverse("rules"), **BROWSER)
    assert sent["Content-Encoding"] == "br"
    assert len(sent.content) < len(plain.content) / 5
    assert without_tokens(decoded(sent)) == without_tokens(plain.content)


def test_a_short_answer_is_sent_as_it_is(game, client):
    # The waiting page's poll: 204, no body at all.
    sent = client.get(f"{open_game().get_absolute_url()}?waiting=1", **HTMX, **BROWSER)
    assert sent.status_code == 204
    assert not sent.has_header("Content-Encoding")


def test_a_head_request_is_answered_without_a_coding():
    sent = Client().head(f"{settings.STATIC_URL}css/site.css", **BROWSER)
    assert sent.status_code == 200
    assert not sent.has_header("Content-Encoding")


# -- exports ---------------------------------------------------------------------------------------


def test_the_text_record_and_the_history_csv_download_the_same_in_every_coding():
    ann, bob = make_user("ann"), make_user("bob")
    game = play_moves(started_game(ann, bob), [])
    finished_game(ann, bob, winners=[0], scores=[40, 30])
    client = client_for(ann)
    for address in (
        reverse("games:record-text", args=[game.pk]),
        reverse("history-csv", args=["ann"]),
    ):
        plain = client.get(address)
        for coding in (BROWSER, GZIP_ONLY):
            sent = client.get(address, **coding)
            assert sent.status_code == 200
            assert sent["Content-Disposition"] == plain["Content-Disposition"]
            assert decoded(sent) == plain.content


def test_the_calendar_feed_reads_as_a_calendar_in_brotli():
    ann = make_user("ann")
    client_for(ann).post(reverse("calendar-new"))
    address = reverse("calendar-feed", args=[ann.player_settings.calendar_token])
    sent = Client().get(address, **BROWSER)
    assert sent.status_code == 200
    if sent.has_header("Content-Encoding"):  # a feed without games may be too short to bother
        assert sent["Content-Encoding"] == "br"
    assert icalendar.Calendar.from_ical(decoded(sent))


def streaming_through_the_middleware(response, accept: str):
    request = RequestFactory().get("/export/", HTTP_ACCEPT_ENCODING=accept)
    return CompressedResponses(lambda request: response)(request)


@pytest.mark.parametrize("accept", ["br", "gzip"])
def test_a_streamed_export_arrives_whole_in_either_coding(accept):
    rows = [f"{n},a row of the export\n".encode() for n in range(2000)]
    response = StreamingHttpResponse(iter(rows), content_type="text/csv")
    sent = streaming_through_the_middleware(response, accept)
    assert sent["Content-Encoding"] == accept
    assert not sent.has_header("Content-Length")
    body = b"".join(sent.streaming_content)
    whole = b"".join(rows)
    assert len(body) < len(whole) / 3
    assert (brotli.decompress(body) if accept == "br" else gzip.decompress(body)) == whole


def test_an_asynchronous_stream_arrives_whole_in_brotli():
    rows = [f"event {n}\n".encode() for n in range(500)]

    async def produce():
        for row in rows:
            yield row

    async def read(sent) -> bytes:
        return b"".join([chunk async for chunk in sent.streaming_content])

    sent = streaming_through_the_middleware(
        StreamingHttpResponse(produce(), content_type="text/plain"), "br"
    )
    assert sent["Content-Encoding"] == "br"
    assert brotli.decompress(asyncio.run(read(sent))) == b"".join(rows)


def test_an_image_or_a_file_compressed_already_is_sent_as_it_is():
    picture = HttpResponse(b"\x89PNG" + bytes(5000), content_type="image/png")
    assert not streaming_through_the_middleware(picture, "br").has_header("Content-Encoding")
    coded = HttpResponse(b"x" * 5000, content_type="text/plain")
    coded["Content-Encoding"] = "gzip"
    assert streaming_through_the_middleware(coded, "br")["Content-Encoding"] == "gzip"


# -- BREACH ----------------------------------------------------------------------------------------


def test_the_csrf_token_is_masked_anew_in_every_response(game, client):
    assert not settings.CSRF_USE_SESSIONS
    first, second = (client.get(game.get_absolute_url()).content for _ in range(2))
    assert CSRF_HEADER.search(first)
    assert CSRF_HEADER.search(first).group() != CSRF_HEADER.search(second).group()


def test_a_pick_in_the_address_is_never_written_back_into_the_game_page(game, client):
    """What makes the game page safe to compress: nothing typed into its address reaches it."""
    probe = "breachprobe0123456789"
    for extra in ({}, HTMX):
        page = client.get(game.get_absolute_url(), {"pick": probe, "partial": probe}, **extra)
        assert page.status_code == 200
        assert probe not in page.text


@pytest.mark.parametrize("coding", ["br", "gzip"])
def test_the_same_page_compressed_twice_differs_in_length(coding):
    """Random bytes beside each compressed page (Heal The BREACH): its size tells less."""
    lengths = {
        len(Client().get(reverse("rules"), HTTP_ACCEPT_ENCODING=coding).content) for _ in range(12)
    }
    assert len(lengths) > 1


def test_brotlis_random_bytes_are_skipped_by_a_decoder():
    text = b"<li>a vault, an order, a builder</li>\n" * 300
    for _ in range(200):
        assert brotli.decompress(brotli_compress(text, max_random_bytes=100)) == text
    assert brotli.decompress(brotli_compress(b"", max_random_bytes=100)) == b""


def test_a_client_may_refuse_a_coding():
    assert encodings_accepted("gzip, deflate, br") == {"gzip", "deflate", "br"}
    assert encodings_accepted("br;q=0, gzip;q=0.8") == {"gzip"}
    assert encodings_accepted("br; q=0.0") == set()
    assert encodings_accepted("") == set()


def test_the_settings_page_with_the_calendars_address_is_never_compressed():
    ann = make_user("ann")
    client = client_for(ann)
    client.post(reverse("calendar-new"))
    page = client.get(reverse("settings"), **BROWSER)
    assert page.status_code == 200
    assert ann.player_settings.calendar_token in page.text
    assert not page.has_header("Content-Encoding")
    # nor the page sent back with what was typed into one of its forms
    refused = client.post(reverse("settings-play"), {"confirm_moves": "?" * 300}, **BROWSER)
    assert refused.status_code == 400
    assert not refused.has_header("Content-Encoding")


def test_a_private_games_waiting_page_with_its_invitation_link_is_never_compressed():
    ann = make_user("ann")
    game = open_game(ann, private=True)
    page = client_for(ann).get(game.get_absolute_url(), **BROWSER)
    assert game.invite_token in page.text
    assert not page.has_header("Content-Encoding")


def test_the_download_of_a_players_data_is_never_compressed():
    ann = make_user("ann", email="ann@example.com")
    data = client_for(ann).get(reverse("my-data"), **BROWSER)
    assert data.status_code == 200
    assert "ann@example.com" in data.text
    assert not data.has_header("Content-Encoding")


def test_the_analysis_board_with_the_lines_kept_is_never_compressed():
    cathedral = {"kind": "place", "building": "cathedral", "col": 4, "row": 4, "turn": 0}
    game = started_game(kind="cathedral", time_control="3d")
    game = play_moves(game, [cathedral])
    page = client_for(game.seat0).get(
        reverse("games:prepare", args=[game.pk]), {"line": "chosen text"}, **BROWSER
    )
    assert page.status_code == 200
    assert not page.has_header("Content-Encoding")


def test_the_admins_pages_are_never_compressed():
    staff = make_staff()
    page = staff_client_for(staff).get("/admin/games/game/", {"q": "chosen text"}, **BROWSER)
    assert page.status_code == 200
    assert not page.has_header("Content-Encoding")


def test_a_view_marked_never_compressed_is_sent_as_it_is():
    view = never_compressed(lambda request: HttpResponse("a secret " * 100))
    sent = CompressedResponses(view)(RequestFactory().get("/", HTTP_ACCEPT_ENCODING="br"))
    assert not sent.has_header("Content-Encoding")
    assert sent.content == b"a secret " * 100


# -- static files in development ------------------------------------------------------------------


@pytest.mark.parametrize(("offered", "coding"), [(BROWSER, "br"), (GZIP_ONLY, "gzip")])
def test_developments_static_files_come_compressed_from_their_sources(offered, coding):
    sent = Client().get(f"{settings.STATIC_URL}css/site.css", **offered)
    assert sent.status_code == 200
    assert sent["Content-Encoding"] == coding
    assert varies_by_encoding(sent)
    source = (settings.BASE_DIR / "static" / "css" / "site.css").read_bytes()
    assert decoded(sent) == source  # as it is on disk: an edit shows at the next reload


def test_developments_static_files_are_asked_for_again_at_each_load():
    sent = Client().get(f"{settings.STATIC_URL}js/game.js", **BROWSER)
    assert sent["Cache-Control"].startswith("max-age=0")


def test_developments_static_file_unchanged_is_answered_304_at_the_next_load():
    first = Client().get(f"{settings.STATIC_URL}js/game.js", **BROWSER)
    assert first["ETag"].startswith("W/")
    again = Client().get(
        f"{settings.STATIC_URL}js/game.js", HTTP_IF_NONE_MATCH=first["ETag"], **BROWSER
    )
    assert again.status_code == 304
    assert not again.has_header("Content-Encoding")


def test_the_language_switcher_goes_back_to_the_page_with_its_query_from_the_referer():
    """The footer's form carries the path alone (no chosen text on every page); the page's
    query comes back from the browser's Referer, when it names the same page of this site."""
    page = Client().get(reverse("rules"), {"anything": "chosen text"})
    assert "chosen text" not in page.text
    switch = reverse("language")
    back = Client().post(
        switch,
        {"language": "fr", "next": reverse("leaderboards")},
        HTTP_REFERER="http://testserver/ratings/?page=2",
    )
    assert back["Location"] == "/ratings/?page=2"
    elsewhere = Client().post(
        switch,
        {"language": "fr", "next": reverse("leaderboards")},
        HTTP_REFERER="http://elsewhere.example/ratings/?page=2",
    )
    assert elsewhere["Location"] == "/ratings/"
