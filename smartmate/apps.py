from django.apps import AppConfig
from django.core.checks import Tags, register


class SmartmateConfig(AppConfig):
    name = "smartmate"
    verbose_name = "SmartMate"

    def ready(self) -> None:
        # Registers the OpenAPI extensions for our authentication classes.
        from smartmate import (
            schema,  # noqa: F401 - imported for what it registers
            tasks,  # noqa: F401 - registers the tasks that services queue by name
        )
        from smartmate.checks import DEPLOY_CHECKS
        from smartmate.platform.broker import broker_connected
        from smartmate.platform.outbox.receivers import outbox_resend_on_connect

        broker_connected.connect(outbox_resend_on_connect, dispatch_uid="outbox-resend-on-connect")

        for check in DEPLOY_CHECKS:
            register(check, Tags.security, deploy=True)
        self._admin_in_the_operators_language()

    @staticmethod
    def _admin_in_the_operators_language() -> None:
        # The admin registered every model while it started (it comes first in INSTALLED_APPS).
        from django.contrib import admin

        from smartmate.admin_labels import catalogue_default_field_names, translate_permission_choices

        catalogue_default_field_names()
        translate_permission_choices(admin.site)
