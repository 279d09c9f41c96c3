from django.urls import path

from accounts.api import views

urlpatterns = [
    path("auth/register/", views.RegisterView.as_view(), name="auth-register"),
    path("auth/token/", views.LoginView.as_view(), name="auth-token"),
    path("auth/token/refresh/", views.RefreshView.as_view(), name="auth-token-refresh"),
    path("auth/logout/", views.LogoutView.as_view(), name="auth-logout"),
    path("auth/password/", views.PasswordChangeView.as_view(), name="auth-password"),
    path("me/", views.MeView.as_view(), name="me"),
    path("me/export/", views.MyDataExportView.as_view(), name="me-export"),
    path("me/counts/", views.MyDataCountsView.as_view(), name="me-counts"),
]
