from django.urls import path

from agent.api import views

urlpatterns = [
    path("conversations/", views.ConversationListView.as_view(), name="agent-conversations"),
    path("conversations/<int:conversation_id>/", views.ConversationDetailView.as_view(), name="agent-conversation"),
    path("conversations/<int:conversation_id>/state/", views.ConversationStateView.as_view(),
         name="agent-conversation-state"),
    path("conversations/<int:conversation_id>/archive/", views.ConversationArchiveView.as_view(),
         name="agent-conversation-archive"),
    path("conversations/<int:conversation_id>/regenerate/", views.ConversationRegenerateView.as_view(),
         name="agent-conversation-regenerate"),
    path("conversations/<int:conversation_id>/timeline/", views.ConversationTimelineView.as_view(),
         name="agent-conversation-timeline"),
    path("tickets/", views.TicketView.as_view(), name="agent-tickets"),
]
