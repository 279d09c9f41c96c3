from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ScheduleConfig(AppConfig):
    name = "schedule"
    verbose_name = _("Schedule")

    def ready(self) -> None:
        from django.db.models.signals import post_save

        from accounts.signals import credentials_revoked, user_registered
        from schedule.models import Course
        from schedule.receivers import (
            calendar_create_on_registration,
            feed_rotate_on_password_change,
            filler_mark_on_course_created,
        )

        credentials_revoked.connect(feed_rotate_on_password_change, dispatch_uid="schedule.feed_rotate")
        user_registered.connect(calendar_create_on_registration, dispatch_uid="schedule.calendar_create")
        post_save.connect(filler_mark_on_course_created, sender=Course, dispatch_uid="schedule.filler_carried")
