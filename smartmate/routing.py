"""Every websocket route of the project, gathered from the apps that own them."""

from django.urls import path

from smartmate.consumers import HealthConsumer

websocket_urlpatterns = [
    path("ws/health/", HealthConsumer.as_asgi()),
]
