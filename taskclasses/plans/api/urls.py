from django.urls import path

from taskclasses.plans.api import views

urlpatterns = [
    path("task-classes/", views.TaskClassListView.as_view(), name="task-classes"),
    path("task-classes/<int:task_class_id>/", views.TaskClassDetailView.as_view(), name="task-class"),
    path("task-classes/<int:task_class_id>/items/", views.TaskItemListView.as_view(), name="task-class-items"),
    path("task-classes/<int:task_class_id>/items/reorder/", views.TaskItemsReorderView.as_view(),
         name="task-class-items-reorder"),
    path("task-classes/<int:task_class_id>/items/<int:item_id>/", views.TaskItemDetailView.as_view(),
         name="task-class-item"),
]
