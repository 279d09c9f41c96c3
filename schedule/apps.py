from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ScheduleConfig(AppConfig):
    name = "schedule"
    verbose_name = _("Schedule")

    def ready(self) -> None:
        from accounts.signals import credentials_revoked, user_registered
        from schedule.receivers import calendar_create_on_registration, feed_rotate_on_password_change

        credentials_revoked.connect(feed_rotate_on_password_change, dispatch_uid="schedule.feed_rotate")
        user_registered.connect(calendar_create_on_registration, dispatch_uid="schedule.calendar_create")
