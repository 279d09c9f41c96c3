from django.apps import AppConfig
from django.contrib.admin import apps as admin_apps
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    default = True  # this module also holds the admin's config
    name = "accounts"
    verbose_name = _("Accounts")

    def ready(self) -> None:
        # Each app's data_areas.py says what it keeps about a student (accounts.data_ports).
        from django.utils.module_loading import autodiscover_modules

        autodiscover_modules("data_areas")


class GatedAdminConfig(admin_apps.AdminConfig):
    """Stands in for django.contrib.admin in INSTALLED_APPS: its site signs operators in through the login gate."""

    default = False
    default_site = "accounts.admin_site.GatedAdminSite"
