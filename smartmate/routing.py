"""Every websocket route of the project, gathered from the apps that own them."""

from django.urls import path

from agent.consumers import AgentConsumer
from smartmate.consumers import HealthConsumer
from taskclasses.reminders.consumers import NotificationsConsumer

websocket_urlpatterns = [
    path("ws/health/", HealthConsumer.as_asgi()),
    path("ws/agent/", AgentConsumer.as_asgi()),
    path("ws/notifications/", NotificationsConsumer.as_asgi()),
]
