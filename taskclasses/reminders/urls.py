from django.urls import path

from taskclasses.reminders import views

app_name = "reminders"

urlpatterns = [
    path("settings/", views.settings_save, name="settings-save"),
]
