from django.urls import path

from schedule import views

app_name = "schedule"

urlpatterns = [
    path("", views.week_board, name="week"),
    path("import/", views.import_page, name="import"),
    path("export.ics", views.export_ics, name="export"),
    path("courses/<int:course_id>/filler/", views.course_filler_toggle, name="course-filler"),
    path("feed/regenerate/", views.feed_regenerate, name="feed-regenerate"),
    path("feed/<str:token>.ics", views.feed, name="feed"),
    path("plans/new/", views.plan_new, name="plan-new"),
    path("plans/<int:preview_id>/apply/", views.plan_apply, name="plan-apply"),
    path("plans/<int:preview_id>/discard/", views.plan_discard, name="plan-discard"),
    path("changesets/<int:changeset_id>/undo/", views.changeset_undo, name="changeset-undo"),
]
