from django.urls import path

from schedule import views

app_name = "schedule"

urlpatterns = [
    path("import/", views.import_page, name="import"),
    path("export.ics", views.export_ics, name="export"),
    path("courses/<int:course_id>/filler/", views.course_filler_toggle, name="course-filler"),
    path("feed/regenerate/", views.feed_regenerate, name="feed-regenerate"),
    path("feed/<str:token>.ics", views.feed, name="feed"),
]
