from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class MemoryConfig(AppConfig):
    name = "memory"
    verbose_name = _("Memory")

    def ready(self) -> None:
        from memory import tasks  # noqa: F401 - registers the tasks that services queue by name
        from memory.services.jobs import memory_jobs_resend_on_connect
        from smartmate.platform.broker import broker_connected

        broker_connected.connect(memory_jobs_resend_on_connect, dispatch_uid="memory-jobs-resend-on-connect")

        from memory.receivers import memories_check_after_import
        from schedule.signals import timetable_imported

        timetable_imported.connect(memories_check_after_import, dispatch_uid="memory-check-after-import")
