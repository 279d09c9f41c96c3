from django.urls import URLPattern, path

from board.api import heal_views, views
from smartmate.platform.deprecation import deprecated_alias


def _block_routes(kind: str, key: str) -> list[URLPattern]:
    """Direct edits of a placed study block (``item``, a TaskItem id) or quick note (``note``, a Task id)."""
    prefix = f"board/blocks/{kind}/<int:{key}>/"
    return [
        path(prefix, views.BoardBlockView.as_view(kind=kind), name=f"board-{kind}"),
        path(f"{prefix}move/", views.BoardBlockMoveView.as_view(kind=kind), name=f"board-{kind}-move"),
        path(f"{prefix}remove/", views.BoardBlockRemoveView.as_view(kind=kind), name=f"board-{kind}-remove"),
        path(f"{prefix}done/", views.BoardBlockDoneView.as_view(kind=kind), name=f"board-{kind}-done"),
        path(f"{prefix}missed/", views.BoardBlockMissedView.as_view(kind=kind), name=f"board-{kind}-missed"),
        path(f"{prefix}pin/", views.BoardBlockPinView.as_view(kind=kind), name=f"board-{kind}-pin"),
        path(f"{prefix}suggestions/", views.BoardBlockSuggestionsView.as_view(kind=kind),
             name=f"board-{kind}-suggestions"),
    ]


urlpatterns = [
    path("task-classes/<int:task_class_id>/feasibility/", views.FeasibilityView.as_view(),
         name="task-class-feasibility"),
    path("previews/", views.PreviewListView.as_view(), name="previews"),
    path("previews/<int:preview_id>/", views.PreviewDetailView.as_view(), name="preview"),
    path("previews/<int:preview_id>/blocks/<int:item_id>/", views.PreviewBlockView.as_view(), name="preview-block"),
    path("previews/<int:preview_id>/apply/", views.PreviewApplyView.as_view(), name="preview-apply"),
    # The previews' first name (renamed to previews/): deprecated aliases answering as the routes above.
    *[path(f"plans/{rest}", deprecated_alias(view, old="/plans/", new="/previews/").as_view(), name=f"plans-{name}")
      for rest, view, name in (("", views.PreviewListView, "list"), ("<int:preview_id>/", views.PreviewDetailView, "detail"),
                               ("<int:preview_id>/blocks/<int:item_id>/", views.PreviewBlockView, "block"),
                               ("<int:preview_id>/apply/", views.PreviewApplyView, "apply"))],
    path("catch-up/", heal_views.CatchUpView.as_view(), name="catch-up"),
    path("repairs/", heal_views.RepairView.as_view(), name="repairs"),
    path("repairs/event/", heal_views.EventOverBlocksView.as_view(), name="repairs-event"),
    path("changesets/", views.ChangeSetListView.as_view(), name="changesets"),
    path("changesets/<int:changeset_id>/undo/", views.ChangeSetUndoView.as_view(), name="changeset-undo"),
    *_block_routes("item", "item_id"),
    *_block_routes("note", "task_id"),
]
