from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponsePermanentRedirect
from django.templatetags.static import static
from django.urls import include, path

from games.archive import history
from games.ratings import views as ratings
from games.web import (  # noqa: F401 - converters: <username:>
    accounts,
    calendar_feed,
    chat,
    close_account,
    converters,
    friends,
    front,
    health,
    locale,
    metrics,
    my_data,
    push_devices,
    second_factor,
    staff_figures,
    views,
)
from games.web.ratelimit import limited


def favicon(request: HttpRequest) -> HttpResponsePermanentRedirect:
    # Resolved per request: at import, the static manifest may not exist yet (before collectstatic).
    return HttpResponsePermanentRedirect(static("favicon.svg"))


urlpatterns = [
    path("", front.home, name="home"),
    path("accounts/signup/", accounts.signup, name="signup"),
    path(
        "accounts/password_reset/",
        limited("password_reset")(auth_views.PasswordResetView.as_view()),
        name="password_reset",
    ),
    path("accounts/login/", second_factor.StaffLoginView.as_view(), name="login"),
    path("accounts/second-factor/", second_factor.second_factor, name="second-factor"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("games/", include("games.urls")),
    path("players/<username:username>/", views.profile, name="profile"),
    path("players/<username:username>/history/", history.history, name="history"),
    path("players/<username:username>/follow/", friends.follow, name="follow"),
    path("players/<username:username>/unfollow/", friends.unfollow, name="unfollow"),
    path("players/<username:username>/block/", friends.block, name="block"),
    path("players/<username:username>/unblock/", friends.unblock, name="unblock"),
    path("players/<username:username>/invite/", friends.invite, name="invite"),
    path("players/<username:username>/report/", chat.report_player, name="report-player"),
    path("following/", friends.following, name="following"),
    path("players/<username:username>/history.csv", history.history_csv, name="history-csv"),
    path("ratings/", ratings.leaderboards, name="leaderboards"),
    path("ratings/<slug:kind>/<slug:speed>/", ratings.leaderboard, name="leaderboard"),
    path("settings/", views.player_settings, name="settings"),
    path("settings/emails/", views.save_notification_settings, name="settings-emails"),
    path("settings/play/", views.save_play_settings, name="settings-play"),
    path("settings/language/", views.save_locale_settings, name="settings-locale"),
    path("settings/vacation/", views.start_vacation, name="vacation-start"),
    path("settings/vacation/end/", views.end_vacation, name="vacation-end"),
    path("settings/browsers/", push_devices.subscribe, name="push-subscribe"),
    path("settings/browsers/<int:pk>/remove/", push_devices.remove, name="push-remove"),
    path("settings/my-data.json", my_data.download, name="my-data"),
    path("settings/close/", close_account.close, name="close-account"),
    path("push-worker.js", push_devices.worker, name="push-worker"),
    path("settings/calendar/", calendar_feed.new_address, name="calendar-new"),
    path("settings/calendar/stop/", calendar_feed.stop, name="calendar-stop"),
    path("calendar/<slug:token>.ics", calendar_feed.feed, name="calendar-feed"),
    path("notifications/unsubscribe/<signed:token>/", views.unsubscribe, name="unsubscribe"),
    path("language/", locale.choose_language, name="language"),
    path("rules/", views.rules, name="rules"),
    path("rules/<edition:edition>/", views.rules, name="rules-edition"),
    path("rules/<slug:kind>/", views.rules, name="rules-kind"),
    # Before the admin's own URLs; admin_view refuses anyone but the staff as the admin does.
    path("admin/figures/", admin.site.admin_view(staff_figures.page), name="site-figures"),
    path("admin/", admin.site.urls),
    path("health/", health.health, name="health"),
    path("health/web/", health.health, {"worker": False}, name="health-web"),
    path("metrics/", metrics.metrics, name="metrics"),
    path("favicon.ico", favicon),
]

handler404 = "games.web.errors.not_found"
