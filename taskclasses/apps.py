from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TaskclassesConfig(AppConfig):
    name = "taskclasses"
    verbose_name = _("Task classes")

    def ready(self) -> None:
        from schedule.signals import study_block_removed
        from taskclasses.receivers import item_pending_again

        study_block_removed.connect(item_pending_again, dispatch_uid="taskclasses.item_pending_again")
