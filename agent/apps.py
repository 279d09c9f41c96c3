from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AgentConfig(AppConfig):
    name = "agent"
    verbose_name = _("Assistant")

    def ready(self) -> None:
        from accounts.signals import credentials_revoked
        from agent import tasks  # noqa: F401 - registers the tasks that services queue by name
        from agent.memory_sources import messages_for_memory
        from agent.receivers import tickets_revoke_on_credentials_revoked
        from agent.services.recovery import turns_resend_on_connect
        from memory.conversations import message_reader_set
        from smartmate.platform.broker import broker_connected

        credentials_revoked.connect(tickets_revoke_on_credentials_revoked, dispatch_uid="agent.tickets_revoke")
        broker_connected.connect(turns_resend_on_connect, dispatch_uid="agent.turns_resend_on_connect")
        message_reader_set(messages_for_memory)
