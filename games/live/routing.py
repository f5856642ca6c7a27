"""Websocket routes of the games app."""

from django.urls import path

from games.live import lobby
from games.live.consumers import GameConsumer, ListConsumer
from games.web import converters  # noqa: F401 - registers the path converters

websocket_urlpatterns = [
    path("ws/games/<game:pk>/", GameConsumer.as_asgi()),
    # The lobby needs its visitor signed in; anyone may watch the games being played.
    path("ws/lobby/", ListConsumer.as_asgi(which=lobby.SEEKS, members_only=True)),
    path("ws/now/", ListConsumer.as_asgi(which=lobby.NOW)),
]
