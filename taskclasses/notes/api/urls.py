from django.urls import path

from taskclasses.notes.api import views

urlpatterns = [
    path("tasks/parse/", views.QuickNoteParseView.as_view(), name="task-parse"),
    path("tasks/quick-add/refine/", views.QuickNoteRefineView.as_view(), name="task-quick-add-refine"),
    path("tasks/lessons/", views.LessonListView.as_view(), name="task-lessons"),
    path("tasks/lessons/<int:lesson_id>/", views.LessonDetailView.as_view(), name="task-lesson"),
    path("tasks/", views.TaskListView.as_view(), name="tasks"),
    path("tasks/<int:task_id>/", views.TaskDetailView.as_view(), name="task"),
    path("tasks/<int:task_id>/complete/", views.TaskCompleteView.as_view(), name="task-complete"),
    path("tasks/<int:task_id>/restore/", views.TaskRestoreView.as_view(), name="task-restore"),
    path("tasks/<int:task_id>/schedule/", views.TaskScheduleView.as_view(), name="task-schedule"),
]
