"""Top-level routes: pages, the API under /api/v1/, schema, admin, health and metrics."""

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView

from smartmate import views

api_v1 = [
    path("", include("accounts.api.urls")),
    path("", include("schedule.api.urls")),
    path("", include("taskclasses.api.urls")),
    path("", include("taskclasses.api.task_class_urls")),
    path("agent/", include("agent.api.urls")),
    path("", include("memory.api.urls")),
]

urlpatterns = [
    path("", views.dashboard, name="dashboard"),
    path("accounts/", include("accounts.urls")),
    path("schedule/", include("schedule.urls")),
    path("tasks/", include("taskclasses.urls")),
    path("plans/", include("taskclasses.task_class_urls")),
    path("assistant/", include("agent.urls")),
    path("memory/", include("memory.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("api/v1/", include((api_v1, "v1"))),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/schema/swagger/", SpectacularSwaggerView.as_view(url_name="schema"), name="swagger-ui"),
    path("api/schema/redoc/", SpectacularRedocView.as_view(url_name="schema"), name="redoc"),
    path("api-auth/", include("rest_framework.urls")),
    path("healthz", views.healthz, name="healthz"),
    path("metrics", views.metrics, name="metrics"),
]

handler404 = "smartmate.api.not_found_view"
handler500 = "smartmate.api.server_error_view"
