from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TaskclassesConfig(AppConfig):
    name = "taskclasses"
    verbose_name = _("Task classes")

    def ready(self) -> None:
        from schedule.services.feeds import feed_reminders_set
        from schedule.signals import study_block_removed
        from taskclasses.receivers import item_pending_again
        from taskclasses.reminders.feed import ReminderFeedAlarms

        study_block_removed.connect(item_pending_again, dispatch_uid="taskclasses.item_pending_again")
        feed_reminders_set(ReminderFeedAlarms())
