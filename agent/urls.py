from django.urls import path

from agent import views

app_name = "agent"

urlpatterns = [
    path("", views.chat, name="chat"),
    path("<int:conversation_id>/", views.chat, name="conversation"),
]
