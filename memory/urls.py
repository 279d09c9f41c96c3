from django.urls import path

from memory import views

app_name = "memory"

urlpatterns = [
    path("", views.memory_page, name="list"),
    path("add/", views.add, name="add"),
    path("<int:memory_id>/edit/", views.edit, name="edit"),
    path("<int:memory_id>/delete/", views.delete, name="delete"),
    path("<int:memory_id>/restore/", views.restore, name="restore"),
    path("<int:memory_id>/forget/", views.forget_one, name="forget-one"),
    path("settings/", views.toggle, name="settings"),
    path("settings/sensitive/", views.toggle_sensitive, name="settings-sensitive"),
    path("forget/", views.forget, name="forget"),
]
