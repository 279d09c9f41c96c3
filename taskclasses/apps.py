from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TaskclassesConfig(AppConfig):
    name = "taskclasses"
    verbose_name = _("Task classes")
