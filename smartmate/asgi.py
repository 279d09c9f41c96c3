"""ASGI entry point: HTTP through Django, websockets through Channels."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "smartmate.settings")
# Django must be set up before anything imports models (consumers do).
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack
from channels.routing import ProtocolTypeRouter, URLRouter

from smartmate.platform.concurrency import HttpConcurrencyLimit
from smartmate.platform.shutdown import exit_deadline_arm_under_daphne
from smartmate.platform.websocket_origin import WebsocketOriginValidator
from smartmate.routing import websocket_urlpatterns
from smartmate.warmup import warm_up_in_background

application = ProtocolTypeRouter(
    {
        "http": HttpConcurrencyLimit(django_asgi_app),
        "websocket": WebsocketOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)

# Load what the first assistant turn needs now, not when the first student is waiting for it.
warm_up_in_background()

# Stop within SHUTDOWN_DEADLINE seconds of SIGTERM, even with request threads stuck on the stopped loop.
exit_deadline_arm_under_daphne()
