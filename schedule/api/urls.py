from django.urls import path

from schedule.api import calendar_views, views
from schedule.exams import api as exam_views
from schedule.student_rules import api as rules_api

urlpatterns = [
    path("me/calendar/", views.CalendarView.as_view(), name="me-calendar"),
    path("calendar/", calendar_views.SchoolCalendarView.as_view(), name="school-calendar"),
    path("calendar/days/", calendar_views.CalendarDayListView.as_view(), name="calendar-days"),
    path("calendar/days/<int:day_id>/", calendar_views.CalendarDayDetailView.as_view(), name="calendar-day"),
    path("calendar/import/", calendar_views.CalendarIcsImportView.as_view(), name="calendar-import"),
    path("calendar/national/", calendar_views.CalendarNationalView.as_view(), name="calendar-national"),
    path("exams/", exam_views.ExamListView.as_view(), name="exams"),
    path("exams/<int:exam_id>/", exam_views.ExamDetailView.as_view(), name="exam"),
    path("rules/", rules_api.RulesView.as_view(), name="study-rules"),
    path("schedule/week/", views.WeekView.as_view(), name="schedule-week"),
    path("schedule/today/", views.TodayView.as_view(), name="schedule-today"),
    path("schedule/events/", views.EventListView.as_view(), name="schedule-events"),
    path("schedule/events/<int:event_id>/", views.EventDetailView.as_view(), name="schedule-event"),
    path("schedule/slots/check/", views.SlotCheckView.as_view(), name="schedule-slot-check"),
    path("schedule/courses/", views.CourseListView.as_view(), name="schedule-courses"),
    path("schedule/courses/<int:course_id>/", views.CourseDetailView.as_view(), name="schedule-course"),
    path("schedule/courses/<int:course_id>/meetings/<int:event_id>/", views.CourseMeetingView.as_view(),
         name="schedule-course-meeting"),
    path("schedule/import/", views.ImportView.as_view(), name="schedule-import"),
    path("schedule/export.ics", views.ExportView.as_view(), name="schedule-export"),
    path("schedule/feed/", views.FeedView.as_view(), name="schedule-feed"),
]
