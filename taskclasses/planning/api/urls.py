from django.urls import path

from taskclasses.planning.api import views

urlpatterns = [
    path("task-classes/<int:task_class_id>/feasibility/", views.FeasibilityView.as_view(),
         name="task-class-feasibility"),
    path("previews/", views.PreviewListView.as_view(), name="previews"),
    path("previews/<int:preview_id>/", views.PreviewDetailView.as_view(), name="preview"),
    path("previews/<int:preview_id>/blocks/<int:item_id>/", views.PreviewBlockView.as_view(), name="preview-block"),
    path("previews/<int:preview_id>/apply/", views.PreviewApplyView.as_view(), name="preview-apply"),
    path("changesets/", views.ChangeSetListView.as_view(), name="changesets"),
    path("changesets/<int:changeset_id>/undo/", views.ChangeSetUndoView.as_view(), name="changeset-undo"),
]
