from django.urls import path

from board import heal_views, views

app_name = "board"

urlpatterns = [
    path("", views.week_board, name="week"),
    path("previews/new/", views.plan_new, name="preview-new"),
    path("previews/<int:preview_id>/apply/", views.plan_apply, name="preview-apply"),
    path("previews/<int:preview_id>/discard/", views.plan_discard, name="preview-discard"),
    path("changesets/<int:changeset_id>/undo/", views.changeset_undo, name="changeset-undo"),
    path("notes/<int:task_id>/schedule/", views.note_schedule, name="note-schedule"),  # 找个时间 for a quick note
    path("catch-up/", heal_views.catch_up, name="catch-up"),
    path("repair/", heal_views.repair, name="repair"),
]
