"""Websocket routes of the games app."""

from django.urls import path

from games import converters  # noqa: F401 - registers the path converters
from games.consumers import GameConsumer

websocket_urlpatterns = [
    path("ws/games/<game:pk>/", GameConsumer.as_asgi()),
]
