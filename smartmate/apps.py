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

        for check in DEPLOY_CHECKS:
            register(check, Tags.security, deploy=True)
