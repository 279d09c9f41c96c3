from django.urls import path

from taskclasses.notes import views

app_name = "notes"

urlpatterns = [
    path("quick-add/", views.quick_add, name="quick-add"),
    path("<int:task_id>/complete/", views.complete, name="complete"),
    path("<int:task_id>/restore/", views.restore, name="restore"),
    path("<int:task_id>/unschedule/", views.unschedule, name="unschedule"),
    path("<int:task_id>/delete/", views.delete, name="delete"),
]
