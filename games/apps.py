from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"

    def ready(self) -> None:
        connect_listeners()


def connect_listeners() -> None:
    """Who hears of a committed change (``games.events``), in the order they run: the push comes
    first (the opponent's drawn here when their socket is in this process, then the announcement;
    then the lists that show the game), so that the opponent's page shows a move before the
    computer's reply to it is even asked for; the watcher last, once the bot's move is queued."""
    from django.db.models.signals import post_delete, post_save

    from games import events, tasks
    from games.community import chat, news, relations
    from games.live import announce, lobby, pushes, watch
    from games.live import chat as chat_push
    from games.models import HiddenWord
    from games.tournaments import entries as tournament_entries

    listeners = [
        (events.game_changed, pushes.on_game_changed),
        (events.game_changed, announce.on_game_changed),
        (events.game_changed, lobby.on_game_changed),
        (events.game_changed, tasks.schedule_checks),
        (events.game_changed, tasks.schedule_computer_move),
        (events.game_changed, watch.on_game_changed),
        (events.game_changed, tasks.schedule_tournament),
        (events.seek_changed, announce.on_seek_changed),
        (events.seek_changed, lobby.on_seek_changed),
        (events.seek_changed, news.on_seek_changed),
        (events.rematch_offered, announce.on_rematch_offered),
        (events.rematch_offered, tasks.schedule_rematch_offer),
        (events.prepared_reply_played, tasks.schedule_reply_news),
        (events.notification_queued, tasks.schedule_delivery),
        (events.account_closed, chat.on_account_closed),
        (events.account_closed, relations.on_account_closed),
        (events.account_closed, tournament_entries.on_account_closed),
        (events.chat_posted, chat_push.on_chat_posted),
    ]
    for signal, listener in listeners:
        signal.connect(listener, dispatch_uid=f"{listener.__module__}.{listener.__qualname__}")
    for change in (post_save, post_delete):
        change.connect(
            chat.on_hidden_word_changed, sender=HiddenWord, dispatch_uid="chat.hidden_words"
        )
