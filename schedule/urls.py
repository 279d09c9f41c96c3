from django.urls import path

from schedule import views
from schedule.exams import views as exam_views
from schedule.semesters import views as semester_views
from schedule.student_rules import views as rules_views

app_name = "schedule"

urlpatterns = [
    path("import/", views.import_page, name="import"),
    path("exams/", exam_views.exams_page, name="exams"),
    path("semesters/", semester_views.semesters_page, name="semesters"),
    path("semesters/next/", semester_views.next_semester_page, name="semester-next"),
    path("semesters/next/undo/", semester_views.next_semester_undo, name="semester-next-undo"),
    path("semesters/<int:semester_id>/", semester_views.past_semester_page, name="semester"),
    path("rules/", rules_views.study_rules_save, name="rules-save"),
    path("export.ics", views.export_ics, name="export"),
    path("courses/<int:course_id>/filler/", views.course_filler_toggle, name="course-filler"),
    path("feed/regenerate/", views.feed_regenerate, name="feed-regenerate"),
    path("feed/<str:token>.ics", views.feed, name="feed"),
]
