from django.urls import path

from accounts import views

app_name = "accounts"

# The root URLconf adds "settings/" (accounts:settings), a page of the schedule app (it edits the calendar).

urlpatterns = [
    path("login/", views.LoginView.as_view(), name="login"),
    path("logout/", views.LogoutView.as_view(), name="logout"),
    path("register/", views.register, name="register"),
    path("password/", views.password_change, name="password"),
]
