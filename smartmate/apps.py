from django.apps import AppConfig


class SmartmateConfig(AppConfig):
    name = "smartmate"
    verbose_name = "SmartMate"
