"""Top-level routes: pages, the API under /api/v1/, schema, admin, health and metrics."""

from django.contrib import admin
from django.urls import URLPattern, URLResolver, include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView

from accounts import urls as accounts_urls
from accounts import views as accounts_views
from board import views as board_views
from schedule import calendar_views
from smartmate import first_run_views, pwa, views
from smartmate.platform import csp

api_v1: list[URLPattern | URLResolver] = [
    path("", views.ApiRootView.as_view(), name="api-root"),
    path("", include("accounts.api.urls")),
    path("", include("schedule.api.urls")),
    path("", include("taskclasses.notes.api.urls")),
    path("", include("taskclasses.plans.api.urls")),
    path("", include("board.api.urls")),
    path("", include("taskclasses.reminders.api.urls")),
    path("", include("taskclasses.semesters.api_urls")),
    path("agent/", include("agent.api.urls")),
    path("", include("memory.api.urls")),
]

# The settings page edits the calendar (schedule's) beside the time zone and quota: the schedule serves
# it, at the address and name it always had (accounts:settings), and accounts imports no schedule code.
accounts_pages = [
    *accounts_urls.urlpatterns,
    path("settings/", calendar_views.settings_page, name="settings"),
]

browsable_api_auth = [
    path("login/", accounts_views.LoginView.as_view(), name="login"),
    path("logout/", accounts_views.LogoutView.as_view(), name="logout"),
]

urlpatterns = [
    path("", views.dashboard, name="dashboard"),
    path("welcome/", first_run_views.first_run_page, name="first-run"),
    path("welcome/dismiss/", first_run_views.first_run_dismiss, name="first-run-dismiss"),
    path("accounts/", include((accounts_pages, accounts_urls.app_name))),
    path("schedule/semesters/", include("taskclasses.semesters.urls")),  # past semesters, the next one
    path("board/", include("board.urls")),  # the week board: previews, apply, undo, catch-up, repair
    # The board's first address: bookmarks, reminder links and installed apps keep working.
    path("schedule/", board_views.week_board_moved, name="board-moved"),
    path("schedule/", include("schedule.urls")),
    path("tasks/", include("taskclasses.notes.urls")),  # quick notes
    path("plans/", include("taskclasses.plans.urls")),  # study plans (task classes)
    path("reminders/", include("taskclasses.reminders.urls")),
    path("assistant/", include("agent.urls")),
    path("memory/", include("memory.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("api/v1/", include((api_v1, "v1"))),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/schema/swagger/", SpectacularSwaggerView.as_view(url_name="schema"), name="swagger-ui"),
    path("api/schema/redoc/", SpectacularRedocView.as_view(url_name="schema"), name="redoc"),
    # The browsable API's "Log in" link (namespace rest_framework) goes to the gated login page.
    path("api-auth/", include((browsable_api_auth, "rest_framework"))),
    path("favicon.ico", views.favicon, name="favicon"),
    path("sw.js", pwa.service_worker, name="service-worker"),
    path("offline/", pwa.offline_page, name="offline"),
    path("manifest.webmanifest", pwa.manifest, name="manifest"),
    path("healthz", views.healthz, name="healthz"),
    path("metrics", views.metrics, name="metrics"),
    path("csp-report", csp.csp_report, name="csp-report"),
]

handler404 = "smartmate.platform.api.not_found_view"
handler500 = "smartmate.platform.api.server_error_view"
