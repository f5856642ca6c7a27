"""Responses compressed for the browsers that ask: brotli when offered, else gzip, else as they are.

A game page is some 25 KB of HTML and the rules page 70 KB, mostly markup that repeats; brotli
sends a fifth to a tenth of that. Gzip is Django's own (``GZipMiddleware``); brotli is the
``brotli`` package with the same guard against BREACH added.

BREACH: an attacker who can watch the sizes of a victim's encrypted responses, and make the
victim's browser ask for a page many times with text of the attacker's choosing in it, learns
a secret on the same page a character at a time, from how well the two compress together. So:

- The CSRF token: Django masks it anew in every response (``CSRF_USE_SESSIONS`` is off, the
  token is the masked form of the cookie's secret), so no two responses carry the same string.
- Every compressed response carries 1 to 100 random bytes besides the page ("Heal The BREACH",
  as Django's gzip does in its header's file name; brotli in a metadata block, which decoders
  skip), so its size says less and such an attack needs many times more requests.
- A response that holds another secret beside text someone else chooses is never compressed:
  its view is decorated with ``never_compressed``. These are: the Settings page (the private
  calendar feed's address, the push endpoints of the player's browsers, forms sent back with
  what was typed), the waiting page of a private game (its invitation link), the download of
  the player's data (their email, notes and prepared lines), the analysis board of prepared
  replies (the lines kept, beside a line read from the address), and the admin's pages
  (``UNCOMPRESSED_PATHS``: a search typed in the address beside every player's data).
- Looked at and compressed: the game page and its partials, the list of prepared replies
  among them (a player's own hidden choices, notes and prepared replies are there, but
  nothing another chooses changes from one request to the next: a ``pick`` in the address is
  read into the legal choices, never echoed, and the opponent's name is fixed); a move's
  answer (a POST, see below); the invitation page (its only secret is the token in its own
  address, which whoever opens it has); the calendar feed (fetched by calendar apps without
  cookies, by whoever holds its address); the unsubscribe page (its signed token is its
  address); Django's password pages (the reset token leaves the address at the first visit,
  kept in the session, and no password is ever written back into a form). There is no page
  that changes an email address.
- Answers to POSTs are compressed like the rest: another site cannot make a browser send one
  that passes the CSRF check, and the 403 it gets instead holds no secret. (The session cookie
  is also SameSite=Lax, so another site's requests for images or scripts carry no session.)
"""

from __future__ import annotations

import secrets
from functools import wraps

import brotli
from django.conf import settings
from django.middleware.gzip import GZipMiddleware
from django.utils.cache import patch_vary_headers
from django.utils.text import compress_sequence, compress_string

# Brotli's quality 5 compresses an answer in about a millisecond, within a tenth of what
# quality 11 gets in fifty: the static files, compressed once by collectstatic, get 11.
BROTLI_QUALITY = 5
SHORTEST = 200  # bytes: below, the header costs about what compression saves (as Django's)
COMPRESSIBLE_TYPES = (
    "text/",
    "application/json",
    "application/javascript",
    "application/xml",
    "application/manifest+json",
    "image/svg+xml",
)
# Statuses whose body is empty or a part of a file: never encoded.
NO_BODY_OR_PART = {204, 206, 304}


def never_compressed(view):
    """Marks the response of ``view`` (a view, or a helper that returns a response) as one the
    compression middleware leaves as it is: it holds a secret beside text another may choose."""

    @wraps(view)
    def marked(*args, **kwargs):
        response = view(*args, **kwargs)
        response.never_compressed = True
        return response

    return marked


def encodings_accepted(header: str) -> set[str]:
    """The content codings an ``Accept-Encoding`` header allows, lowercase; one with ``q=0`` is
    refused. ``*`` stands for any coding the header does not name."""
    accepted, refused = set(), set()
    for item in header[:500].split(","):
        name, _, params = item.partition(";")
        name = name.strip().lower()
        quality = params.strip().lower().removeprefix("q=")
        try:
            zero = params.strip() != "" and float(quality) <= 0
        except ValueError:
            zero = False
        if name:
            (refused if zero else accepted).add(name)
    if "*" in accepted:
        accepted |= {"br", "gzip"} - refused
    return accepted - refused


class CompressedResponses:
    """Brotli for a browser that offers it (every current one does, over HTTPS), gzip for one
    that offers only gzip, the response as it is otherwise; ``Vary: Accept-Encoding`` on every
    response that could have been compressed, so that a cache keeps the versions apart.
    Django's ``GZipMiddleware`` does the same for gzip alone, and its gzip is used here."""

    max_random_bytes = GZipMiddleware.max_random_bytes  # 100

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if "HTTP_IF_NONE_MATCH" in request.META:
            # If-None-Match compares tags weakly (RFC 9110 13.1.2): the W/ this middleware puts
            # on a compressed answer's tag must not hide a match from whitenoise, which compares
            # strings, so that a file unchanged is answered 304 again.
            request.META["HTTP_IF_NONE_MATCH"] = request.META["HTTP_IF_NONE_MATCH"].replace(
                "W/", ""
            )
        response = self.get_response(request)
        if not _compressible(request, response):
            return response
        patch_vary_headers(response, ("Accept-Encoding",))
        accepted = encodings_accepted(request.headers.get("Accept-Encoding", ""))
        coding = next((name for name in ("br", "gzip") if name in accepted), None)
        if coding is None:
            return response
        whole, stream, stream_async = CODINGS[coding]
        if response.streaming:
            original = response.streaming_content
            wrap = stream_async if response.is_async else stream
            response.streaming_content = wrap(original, self.max_random_bytes)
            del response.headers["Content-Length"]  # unknown until the stream ends
        else:
            compressed = whole(response.content, max_random_bytes=self.max_random_bytes)
            if len(compressed) >= len(response.content):
                return response
            response.content = compressed
            response.headers["Content-Length"] = str(len(compressed))
        etag = response.get("ETag")
        if etag and etag.startswith('"'):
            response.headers["ETag"] = "W/" + etag  # RFC 9110 8.8.1, as Django's gzip does
        response.headers["Content-Encoding"] = coding
        return response


def _compressible(request, response) -> bool:
    if getattr(response, "never_compressed", False):
        return False
    if request.path_info.startswith(settings.UNCOMPRESSED_PATHS):
        return False
    if request.method == "HEAD":
        return False  # no body goes out (whitenoise's answer to HEAD is an empty file)
    if response.status_code in NO_BODY_OR_PART or response.has_header("Content-Range"):
        return False
    if response.has_header("Content-Encoding"):
        return False  # whitenoise's files compressed ahead, or an answer encoded already
    if not response.streaming and len(response.content) < SHORTEST:
        return False
    return response.get("Content-Type", "").lower().startswith(COMPRESSIBLE_TYPES)


def random_padding(max_random_bytes: int) -> bytes:
    """A brotli metadata meta-block (RFC 7932, 9.2) of 1 to ``max_random_bytes`` (at most 256)
    random bytes, which a decoder reads past: ISLAST 0, MNIBBLES 0 (the bits 11), a reserved 0,
    MSKIPBYTES 1, then MSKIPLEN - 1 in eight bits and zeros to the byte's end. It must start on
    a byte boundary, which the compressor's flush() leaves."""
    length = secrets.randbelow(max_random_bytes) + 1
    header = 0b110 | (1 << 4) | ((length - 1) << 6)
    return header.to_bytes(2, "little") + secrets.token_bytes(length)


def brotli_compress(content: bytes, *, max_random_bytes: int) -> bytes:
    compressor = brotli.Compressor(quality=BROTLI_QUALITY)
    body = compressor.process(content) + compressor.flush()
    return body + random_padding(max_random_bytes) + compressor.finish()


def brotli_sequence(chunks, max_random_bytes: int):
    compressor = brotli.Compressor(quality=BROTLI_QUALITY)
    for chunk in chunks:
        # What the compressor has made so far, as Django's gzip of a stream does: not flushed at
        # every chunk, which would cost a stream of short rows most of its compression.
        data = compressor.process(chunk)
        if data:
            yield data
    yield compressor.flush() + random_padding(max_random_bytes) + compressor.finish()


async def brotli_async(chunks, max_random_bytes: int):
    compressor = brotli.Compressor(quality=BROTLI_QUALITY)
    async for chunk in chunks:
        data = compressor.process(chunk)
        if data:
            yield data
    yield compressor.flush() + random_padding(max_random_bytes) + compressor.finish()


def gzip_sequence(chunks, max_random_bytes: int):
    return compress_sequence(chunks, max_random_bytes=max_random_bytes)


async def gzip_async(chunks, max_random_bytes: int):
    # As Django's GZipMiddleware: each chunk a gzip member of its own, which a browser reads on.
    async for chunk in chunks:
        yield compress_string(chunk, max_random_bytes=max_random_bytes)


# Each coding: the whole body, a stream, an asynchronous stream.
CODINGS = {
    "br": (brotli_compress, brotli_sequence, brotli_async),
    "gzip": (compress_string, gzip_sequence, gzip_async),
}
