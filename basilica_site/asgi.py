"""ASGI entry point: HTTP through Django (past a gate for chat floods), websockets through
Channels.

Websockets are checked against ALLOWED_HOSTS and carry the Django session, so a consumer knows
who is on the other end before it accepts.
"""

import os

from django.conf import settings
from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "basilica_site.settings")
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402 - needs Django set up first
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from games.live.gate import Gate  # noqa: E402
from games.live.routing import websocket_urlpatterns  # noqa: E402
from games.web.middleware import ChatFloodGate  # noqa: E402

# Another site's pages are refused first; then the gate refuses a flood's handshakes before the
# session is read.
websockets = AllowedHostsOriginValidator(
    Gate(AuthMiddlewareStack(URLRouter(websocket_urlpatterns)))
)

if settings.SENTRY_DSN:
    # Django's pages report their errors through sentry-sdk's Django integration; a socket's
    # consumer, outside Django's handler, is wrapped so that its errors come with the socket's
    # path and headers (basilica_site.reporting scrubs them alike).
    from sentry_sdk.integrations.asgi import SentryAsgiMiddleware

    websockets = SentryAsgiMiddleware(websockets)

# A chat flood's posts, from a session just told to wait, are answered before Django reads them.
application = ProtocolTypeRouter({"http": ChatFloodGate(django_asgi_app), "websocket": websockets})

from basilica_site.runtime import ready_to_serve  # noqa: E402

ready_to_serve()
