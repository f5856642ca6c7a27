"""Websocket routes of the games app."""

from django.urls import path

from games.live.consumers import GameConsumer
from games.web import converters  # noqa: F401 - registers the path converters

websocket_urlpatterns = [
    path("ws/games/<game:pk>/", GameConsumer.as_asgi()),
]
