from django.urls import path

from taskclasses.plans import views

app_name = "plans"

urlpatterns = [
    path("", views.class_list, name="list"),
    path("<int:task_class_id>/", views.class_detail, name="detail"),
    path("<int:task_class_id>/delete/", views.class_delete, name="delete"),
    path("<int:task_class_id>/items/", views.item_add, name="item-add"),
    path("<int:task_class_id>/items/<int:item_id>/rename/", views.item_rename, name="item-rename"),
    path("<int:task_class_id>/items/<int:item_id>/move/", views.item_move, name="item-move"),
    path("<int:task_class_id>/items/<int:item_id>/remove/", views.item_remove, name="item-remove"),
]
