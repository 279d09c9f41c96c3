from django.apps import AppConfig


class SmartmateConfig(AppConfig):
    name = "smartmate"
    verbose_name = "SmartMate"

    def ready(self) -> None:
        # Registers the OpenAPI extensions for our authentication classes.
        from smartmate import schema  # noqa: F401
