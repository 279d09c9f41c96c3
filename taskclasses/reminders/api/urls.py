from django.urls import path

from taskclasses.reminders.api import views

urlpatterns = [
    path("reminders/", views.ReminderListView.as_view(), name="reminders"),
    path("reminders/read-all/", views.ReminderReadAllView.as_view(), name="reminders-read-all"),
    path("reminders/settings/", views.ReminderSettingsView.as_view(), name="reminder-settings"),
    path("reminders/<int:reminder_id>/read/", views.ReminderReadView.as_view(), name="reminder-read"),
]
