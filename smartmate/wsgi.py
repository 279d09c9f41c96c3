"""WSGI entry point (HTTP only; the websocket chat needs the ASGI app)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "smartmate.settings")
application = get_wsgi_application()
