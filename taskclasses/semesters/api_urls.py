from django.urls import path

from taskclasses.semesters import api

urlpatterns = [
    path("semesters/", api.SemesterListView.as_view(), name="semesters"),
    path("semesters/next/", api.NextSemesterView.as_view(), name="semester-next"),
    path("semesters/next/undo/", api.NextSemesterUndoView.as_view(), name="semester-next-undo"),
    path("semesters/<int:semester_id>/", api.PastSemesterView.as_view(), name="semester"),
]
