from django.urls import path

from taskclasses.semesters import views

app_name = "semesters"

urlpatterns = [
    path("", views.semesters_page, name="list"),
    path("next/", views.next_semester_page, name="next"),
    path("next/undo/", views.next_semester_undo, name="undo"),
    path("<int:semester_id>/", views.past_semester_page, name="past"),
]
