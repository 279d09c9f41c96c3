from django.urls import path

from schedule import views
from schedule.exams import views as exam_views
from schedule.student_rules import views as rules_views

app_name = "schedule"

urlpatterns = [
    path("import/", views.import_page, name="import"),
    path("exams/", exam_views.exams_page, name="exams"),
    path("rules/", rules_views.study_rules_save, name="rules-save"),
    path("export.ics", views.export_ics, name="export"),
    path("courses/<int:course_id>/filler/", views.course_filler_toggle, name="course-filler"),
    path("feed/regenerate/", views.feed_regenerate, name="feed-regenerate"),
    path("feed/<str:token>.ics", views.feed, name="feed"),
]
