from django.urls import path

from memory import views

app_name = "memory"

urlpatterns = [
    path("", views.memory_page, name="list"),
    path("<int:memory_id>/edit/", views.edit, name="edit"),
    path("<int:memory_id>/delete/", views.delete, name="delete"),
    path("<int:memory_id>/restore/", views.restore, name="restore"),
    path("settings/", views.toggle, name="settings"),
    path("forget/", views.forget, name="forget"),
]
