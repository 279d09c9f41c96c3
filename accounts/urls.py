from django.urls import path

from accounts import data_views, views

app_name = "accounts"

# The root URLconf adds "settings/" (accounts:settings), a page of the schedule app (it edits the calendar).

urlpatterns = [
    path("login/", views.LoginView.as_view(), name="login"),
    path("logout/", views.LogoutView.as_view(), name="logout"),
    path("register/", views.register, name="register"),
    path("password/", views.password_change, name="password"),
    path("data/", data_views.my_data, name="my-data"),
    path("data/download/", data_views.my_data_download, name="my-data-download"),
    path("data/delete/", data_views.my_account_delete, name="my-account-delete"),
]
