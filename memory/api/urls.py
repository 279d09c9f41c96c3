from django.urls import path

from memory.api import views

urlpatterns = [
    path("memories/", views.MemoryListView.as_view(), name="memories"),
    path("memories/settings/", views.MemorySettingsView.as_view(), name="memory-settings"),
    path("memories/forget/", views.MemoryForgetView.as_view(), name="memory-forget"),
    path("memories/<int:memory_id>/", views.MemoryDetailView.as_view(), name="memory"),
    path("memories/<int:memory_id>/restore/", views.MemoryRestoreView.as_view(), name="memory-restore"),
    path("memories/<int:memory_id>/forget/", views.MemoryForgetOneView.as_view(), name="memory-forget-one"),
    path("memories/<int:memory_id>/source/", views.MemorySourceView.as_view(), name="memory-source"),
]
