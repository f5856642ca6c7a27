"""URL arguments the site accepts: bounded and free of NUL bytes, so a forged path is a 404
before it reaches the database (PostgreSQL refuses NUL in text; a huge number overflows)."""

from __future__ import annotations

from django.urls import register_converter


class GameId:
    regex = "[0-9]{1,18}"  # a bigint's range

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


class Username:
    regex = r"[\w.@+-]{1,150}"  # Django's username validator and the field's length

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


class InviteToken(Username):
    regex = "[A-Za-z0-9_-]{1,32}"  # secrets.token_urlsafe and the field's length


class SignedToken(Username):
    regex = "[A-Za-z0-9_:-]{1,200}"  # django.core.signing's URL-safe base64 and colons


class Edition(Username):
    regex = "[0-9]{4}"


register_converter(GameId, "game")
register_converter(Username, "username")
register_converter(InviteToken, "token")
register_converter(SignedToken, "signed")
register_converter(Edition, "edition")
