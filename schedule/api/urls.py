from django.urls import path

from schedule.api import planning_views, views

urlpatterns = [
    path("schedule/week/", views.WeekView.as_view(), name="schedule-week"),
    path("schedule/today/", views.TodayView.as_view(), name="schedule-today"),
    path("schedule/events/", views.EventListView.as_view(), name="schedule-events"),
    path("schedule/events/<int:event_id>/", views.EventDetailView.as_view(), name="schedule-event"),
    path("schedule/slots/check/", views.SlotCheckView.as_view(), name="schedule-slot-check"),
    path("schedule/courses/", views.CourseListView.as_view(), name="schedule-courses"),
    path("schedule/courses/<int:course_id>/", views.CourseDetailView.as_view(), name="schedule-course"),
    path("schedule/import/", views.ImportView.as_view(), name="schedule-import"),
    path("schedule/export.ics", views.ExportView.as_view(), name="schedule-export"),
    path("schedule/feed/", views.FeedView.as_view(), name="schedule-feed"),
    path("task-classes/<int:task_class_id>/feasibility/", planning_views.FeasibilityView.as_view(),
         name="task-class-feasibility"),
    path("plans/", planning_views.PreviewListView.as_view(), name="plans"),
    path("plans/<int:preview_id>/", planning_views.PreviewDetailView.as_view(), name="plan"),
    path("plans/<int:preview_id>/blocks/<int:item_id>/", planning_views.PreviewBlockView.as_view(),
         name="plan-block"),
    path("plans/<int:preview_id>/apply/", planning_views.PreviewApplyView.as_view(), name="plan-apply"),
    path("changesets/", planning_views.ChangeSetListView.as_view(), name="changesets"),
    path("changesets/<int:changeset_id>/undo/", planning_views.ChangeSetUndoView.as_view(), name="changeset-undo"),
]
