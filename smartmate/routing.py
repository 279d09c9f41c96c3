"""Every websocket route of the project, gathered from the apps that own them."""

from django.urls import path

from agent.consumers import AgentConsumer
from smartmate.consumers import HealthConsumer

websocket_urlpatterns = [
    path("ws/health/", HealthConsumer.as_asgi()),
    path("ws/agent/", AgentConsumer.as_asgi()),
]
