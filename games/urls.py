from django.urls import path

from games.archive import analysis_views, record_views, replays
from games.web import (  # noqa: F401 - converters registers <game:> and <token:>
    converters,
    front,
    next_game,
    notes,
    prepared,
    views,
)

app_name = "games"
urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("new/", views.create, name="create"),
    path("computer/", views.play_computer, name="computer"),
    path("play/<slug:preset>/", front.play_now, name="play-now"),
    path("mine/", views.my_games, name="mine"),
    path("next/", next_game.next_game, name="next"),
    path("now/", views.now_playing, name="now"),
    path("series/<int:pk>/", views.series, name="series"),
    path("import/", record_views.import_record, name="import"),
    path("invite/<token:token>/", views.invitation, name="invitation"),
    path("<game:pk>/", views.detail, name="detail"),
    path("<game:pk>/act/", views.act, name="act"),
    path("<game:pk>/hint/", views.hint, name="hint"),
    path("<game:pk>/symbols/", views.symbols, name="symbols"),
    path("<game:pk>/hint/answer/", views.hint_answer, name="hint-answer"),
    path("<game:pk>/replay/", replays.replay, name="replay"),
    path("<game:pk>/analysis/", analysis_views.ask, name="analysis"),
    path("<game:pk>/accept/", views.accept, name="accept"),
    path("<game:pk>/cancel/", views.cancel, name="cancel"),
    path("<game:pk>/resign/", views.resign, name="resign"),
    path("<game:pk>/abort/", views.abort, name="abort"),
    path("<game:pk>/rematch/", views.rematch, name="rematch"),
    path("<game:pk>/record.json", record_views.record_json, name="record-json"),
    path("<game:pk>/record.txt", record_views.record_text, name="record-text"),
    path("<game:pk>/notes/", notes.save, name="notes"),
    path("<game:pk>/prepare/", prepared.board, name="prepare"),
    path("<game:pk>/prepare/keep/", prepared.keep, name="prepare-keep"),
    path("<game:pk>/prepare/lines/", prepared.lines, name="prepare-lines"),
    path("<game:pk>/prepare/delete/", prepared.delete_all, name="prepare-delete-all"),
    path("<game:pk>/prepare/<game:line_id>/delete/", prepared.delete, name="prepare-delete"),
]
