"""Input and output shapes of the schedule API. Fields are listed explicitly."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from schedule.core.time_model import MAX_SECTIONS
from schedule.models import MAX_SEMESTER_WEEKS, CalendarSettings, Course, ScheduleEvent
from schedule.services.events import Span
from smartmate.platform.serializers import BoundedDateField, ModelSerializer, RFC3339DateTimeField


class WeekQuerySerializer(serializers.Serializer):
    # No bounds here: the semester's own length decides, with a message naming it.
    week = serializers.IntegerField(required=False, help_text="Default: this week.",
                                    error_messages={"invalid": _("A week is a whole number.")})


class SpanInputSerializer(serializers.Serializer):
    week = serializers.IntegerField(min_value=1, max_value=30)
    day = serializers.IntegerField(min_value=1, max_value=7)
    start_section = serializers.IntegerField(min_value=1, max_value=16)
    end_section = serializers.IntegerField(min_value=1, max_value=16)

    def validate(self, attrs: dict) -> dict:
        if attrs["end_section"] < attrs["start_section"]:
            raise serializers.ValidationError({"end_section": [_("The last section comes before the first.")]})
        return attrs

    @staticmethod
    def to_span(attrs: dict) -> Span:
        return Span(attrs["week"], attrs["day"], attrs["start_section"], attrs["end_section"])


class EventCreateInputSerializer(SpanInputSerializer):
    week = serializers.IntegerField(min_value=1, max_value=30, required=False,
                                    help_text="One event in this week. Give either week or weeks.")
    weeks = serializers.CharField(max_length=100, required=False,
                                  help_text="A repeating event: one occurrence in each week named, e.g. 1-16, "
                                            "1-16单 (odd weeks), 2-16双 (even weeks) or 2,4,6-8.")
    title = serializers.CharField(max_length=100)
    location = serializers.CharField(max_length=100, required=False, allow_blank=True, default="")
    note = serializers.CharField(max_length=500, required=False, allow_blank=True, default="")

    def validate(self, attrs: dict) -> dict:
        attrs = super().validate(attrs)
        if ("week" in attrs) == ("weeks" in attrs):
            raise serializers.ValidationError({"week": [_("Give either a week or a week range, not both or neither.")]})
        return attrs


SCOPE_CHOICES = [("this", _("This occurrence only")), ("all", _("Every occurrence of the series"))]


class EventScopeQuerySerializer(serializers.Serializer):
    scope = serializers.ChoiceField(choices=SCOPE_CHOICES, required=False, default="this",
                                    help_text="For a repeating event: this occurrence only (default) or all of them.")


class EventUpdateInputSerializer(serializers.Serializer):
    title = serializers.CharField(max_length=100, required=False)
    location = serializers.CharField(max_length=100, required=False, allow_blank=True)
    note = serializers.CharField(max_length=500, required=False, allow_blank=True)
    week = serializers.IntegerField(min_value=1, max_value=30, required=False)
    day = serializers.IntegerField(min_value=1, max_value=7, required=False)
    start_section = serializers.IntegerField(min_value=1, max_value=16, required=False)
    end_section = serializers.IntegerField(min_value=1, max_value=16, required=False)
    scope = serializers.ChoiceField(
        choices=SCOPE_CHOICES, required=False, default="this",
        help_text="For a repeating event: change this occurrence only (it leaves the series; the default) or all "
                  "of them (a move then gives every occurrence the new day and sections in its own week; week "
                  "may be left out).")
    weeks = serializers.CharField(
        max_length=100, required=False,
        help_text="With scope=all: the series' new weeks, e.g. 1-16单 (weeks left out lose their occurrence, new "
                  "weeks get one; a one-off event becomes a series).")

    SPAN_FIELDS = ("week", "day", "start_section", "end_section")

    def validate(self, attrs: dict) -> dict:
        given = [name for name in self.SPAN_FIELDS if name in attrs]
        needed = self.SPAN_FIELDS[1:] if attrs.get("scope") == "all" and "week" not in attrs else self.SPAN_FIELDS
        if given and len(given) != len(needed):
            missing = [name for name in needed if name not in attrs]
            message = (_("Give week, day, start_section and end_section together.") if needed == self.SPAN_FIELDS
                       else _("Give day, start_section and end_section together."))
            raise serializers.ValidationError({name: [message] for name in missing})
        if given and attrs["end_section"] < attrs["start_section"]:
            raise serializers.ValidationError({"end_section": [_("The last section comes before the first.")]})
        return attrs


class CourseBriefSerializer(ModelSerializer):
    class Meta:
        model = Course
        fields = ["id", "name", "teacher", "is_filler"]
        read_only_fields = fields


class EventOutputSerializer(ModelSerializer):
    course = CourseBriefSerializer(read_only=True, allow_null=True)
    is_filler = serializers.BooleanField(read_only=True)

    class Meta:
        model = ScheduleEvent
        fields = ["id", "kind", "source", "title", "location", "note", "week", "day", "start_section",
                  "end_section", "starts_at", "ends_at", "is_filler", "course", "series_id"]
        read_only_fields = fields


class EventSeriesOutputSerializer(serializers.Serializer):
    series_id = serializers.UUIDField()
    weeks = serializers.ListField(child=serializers.IntegerField())
    events = EventOutputSerializer(many=True)


class OwnEventChangeMixin(serializers.Serializer):
    """The change set an own-event write made (undo it with POST /api/v1/changesets/{id}/undo/)."""

    changeset_id = serializers.IntegerField(
        allow_null=True,
        help_text="The undoable change this write made. A course meeting or a planned block is refused (409 "
                  "not_own_event): they change through the course and the block endpoints.")
    summary = serializers.CharField(help_text="One line saying what changed, for the undo bar.")


class EventChangeOutputSerializer(EventOutputSerializer, OwnEventChangeMixin):
    class Meta(EventOutputSerializer.Meta):
        fields = [*EventOutputSerializer.Meta.fields, "changeset_id", "summary"]
        read_only_fields = fields


class EventSeriesChangeOutputSerializer(EventSeriesOutputSerializer, OwnEventChangeMixin):
    pass


class EventDeleteOutputSerializer(OwnEventChangeMixin):
    deleted = serializers.IntegerField(help_text="How many occurrences were deleted.")


class SectionRowSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    start = serializers.CharField()
    end = serializers.CharField()


class WeekBoardSerializer(serializers.Serializer):
    week = serializers.IntegerField()
    weeks = serializers.IntegerField()
    dates = serializers.ListField(child=serializers.DateField())
    today = serializers.DateField()
    sections = SectionRowSerializer(many=True)
    events = EventOutputSerializer(many=True)


class CourseOutputSerializer(ModelSerializer):
    meetings = serializers.IntegerField(read_only=True)

    class Meta:
        model = Course
        fields = ["id", "name", "teacher", "location", "is_filler", "meetings"]
        read_only_fields = fields


class CourseUpdateInputSerializer(serializers.Serializer):
    is_filler = serializers.BooleanField(required=False)
    name = serializers.CharField(max_length=100, required=False)
    teacher = serializers.CharField(max_length=100, required=False, allow_blank=True)
    location = serializers.CharField(max_length=100, required=False, allow_blank=True)


class CourseChangeInputSerializer(CourseUpdateInputSerializer):
    name = serializers.CharField(max_length=100, required=False, allow_blank=False)
    dry_run = serializers.BooleanField(required=False, default=False,
                                       help_text="Only list the study blocks the change would return to pending.")


class DryRunQuerySerializer(serializers.Serializer):
    dry_run = serializers.BooleanField(required=False, default=False,
                                       help_text="Only list the study blocks the deletion would return to pending.")


class DisplacedBlockSerializer(serializers.Serializer):
    kind = serializers.CharField(help_text="item (a study block) or note (a quick note)")
    id = serializers.IntegerField()
    title = serializers.CharField()
    week = serializers.IntegerField()
    day = serializers.IntegerField()
    day_label = serializers.CharField()
    start_section = serializers.IntegerField()
    end_section = serializers.IntegerField()
    host_event_id = serializers.IntegerField(allow_null=True)


class TimetableChangeOutputSerializer(serializers.Serializer):
    dry_run = serializers.BooleanField()
    changeset_id = serializers.IntegerField(allow_null=True, help_text="Undo with /api/v1/changesets/<id>/undo/.")
    summary = serializers.CharField(help_text="The undo bar's line.")
    displaced = DisplacedBlockSerializer(many=True, help_text="Blocks that return (or would return) to pending.")


class CourseChangeOutputSerializer(TimetableChangeOutputSerializer):
    course = CourseOutputSerializer()


class ArrangementSerializer(serializers.Serializer):
    day = serializers.IntegerField()
    day_label = serializers.CharField()
    start_section = serializers.IntegerField()
    end_section = serializers.IntegerField()
    weeks_text = serializers.CharField()
    location = serializers.CharField()


class CourseDiffSerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=["added", "changed", "removed"])
    name = serializers.CharField()
    teacher = serializers.CharField()
    course_id = serializers.IntegerField(allow_null=True)
    before = ArrangementSerializer(many=True)
    after = ArrangementSerializer(many=True)
    meetings_added = serializers.IntegerField()
    meetings_removed = serializers.IntegerField()
    displaced = DisplacedBlockSerializer(many=True)


class SyncOutcomeSerializer(TimetableChangeOutputSerializer):
    """A re-import (the student already has courses): the diff, and once confirmed its change set."""

    mode = serializers.CharField(default="sync")
    digest = serializers.CharField(help_text="Send it back as `expected` to confirm exactly this diff.")
    courses = CourseDiffSerializer(many=True)
    unchanged = serializers.IntegerField(help_text="Courses the file leaves as they are.")
    conflicts = serializers.ListField(child=serializers.CharField(),
                                      help_text="Custom events new meetings would cover; the sync is refused.")
    meetings_added = serializers.IntegerField()
    meetings_removed = serializers.IntegerField()


class ImportInputSerializer(serializers.Serializer):
    file = serializers.FileField(required=False)
    content = serializers.CharField(required=False, trim_whitespace=False,
                                    help_text=_("The file's text, instead of an upload."))
    format = serializers.ChoiceField(choices=["csv", "ics", "json"], required=False)
    dry_run = serializers.BooleanField(required=False, default=False)
    expected = serializers.CharField(required=False, max_length=64,
                                     help_text="A re-import's dry-run digest: refused (409 import_stale) when the "
                                               "timetable changed since.")
    fit = serializers.ChoiceField(choices=["file", "mine"], required=False, default="file",
                                  help_text="file: read a calendar under the semester and section times it implies "
                                            "(the answer's `frame`); mine: under the student's own, moved times "
                                            "listed as notices.")
    adopt = serializers.BooleanField(required=False, default=False,
                                     help_text="Take the file's semester and section times (`frame`) into the "
                                               "settings in the same transaction; required to write when `frame` "
                                               "is set.")
    mode = serializers.ChoiceField(choices=["add", "replace"], required=False, default="replace",
                                   help_text="When the student has courses already: add (the file's courses join "
                                             "them; meetings already there are skipped) or replace (a sync: the "
                                             "dry run is the diff, courses the file leaves out are deleted). The "
                                             "import page asks and defaults to add; the API keeps replace as its "
                                             "default for existing clients.")
    accept_skips = serializers.BooleanField(required=False, default=False,
                                            help_text="Import what fits and leave out the events listed in "
                                                      "`skipped`; required to write when there are any.")

    def validate(self, attrs: dict) -> dict:
        if ("file" in attrs) == ("content" in attrs):
            raise serializers.ValidationError({"file": [_("Send either a file or content, not both or neither.")]})
        return attrs


class PlannedCourseSerializer(serializers.Serializer):
    row = serializers.IntegerField()
    name = serializers.CharField()
    teacher = serializers.CharField()
    location = serializers.CharField()
    day = serializers.IntegerField()
    start_section = serializers.IntegerField()
    end_section = serializers.IntegerField()
    weeks_text = serializers.CharField()
    new_meetings = serializers.IntegerField()
    existing_meetings = serializers.IntegerField()
    is_filler = serializers.BooleanField()
    start_time = serializers.CharField(help_text="The first section's start, HH:MM.")
    end_time = serializers.CharField(help_text="The last section's end, HH:MM.")
    notices = serializers.ListField(child=serializers.CharField(),
                                    help_text="What the importer adjusted to read this row (snapped times, "
                                              "clipped weeks, merged duplicates), in the student's language.")
    own_times = serializers.BooleanField(help_text="The course keeps its own clock times (start_time/end_time), "
                                                   "off the section grid; it holds the sections it overlaps.")
    note = serializers.CharField(help_text="What the file said of the course beyond name, room and teacher.")
    beside = serializers.BooleanField(help_text="These meetings are at the same time as another course's; "
                                                "they are shown beside it and hold no sections.")


class ProposedSectionSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    start = serializers.CharField()
    end = serializers.CharField()
    uses = serializers.IntegerField(help_text="The file's meetings in this section; 0 = one of the student's "
                                              "sections the file does not use, kept.")
    current = serializers.CharField(help_text="The student's section of this number, or empty.")


class FrameChangeSerializer(serializers.Serializer):
    current_start = serializers.CharField()
    current_weeks = serializers.IntegerField()
    start = serializers.CharField(allow_null=True, help_text="Proposed Monday of week 1; null keeps the student's.")
    weeks = serializers.IntegerField(allow_null=True)
    sections = ProposedSectionSerializer(many=True, help_text="Proposed section times; empty keeps the student's.")
    later_sections = ProposedSectionSerializer(
        many=True, help_text="The school's second section times (winter or summer hours); empty: one grid all term.")
    later_from = serializers.CharField(allow_null=True, help_text="The date the second section times start.")


class SkippedGroupSerializer(serializers.Serializer):
    code = serializers.CharField()
    summary = serializers.CharField()
    count = serializers.IntegerField()
    examples = serializers.ListField(child=serializers.CharField())


class ImportOutcomeSerializer(serializers.Serializer):
    dry_run = serializers.BooleanField()
    created_courses = serializers.IntegerField()
    created_events = serializers.IntegerField()
    skipped_existing = serializers.IntegerField()
    courses = PlannedCourseSerializer(many=True)
    frame = FrameChangeSerializer(allow_null=True, help_text="The semester and section times the file implies, "
                                                            "where they differ from the student's.")
    adopted = serializers.BooleanField()
    skipped = SkippedGroupSerializer(many=True, help_text="Events left out, by kind, with examples.")
    repairs = serializers.ListField(child=serializers.CharField(),
                                    help_text="What was repaired to read a damaged calendar file.")


class FeedOutputSerializer(serializers.Serializer):
    url = serializers.URLField()
    created_at = RFC3339DateTimeField()
    last_fetched_at = RFC3339DateTimeField(allow_null=True)


class SectionTimeSerializer(serializers.Serializer):
    start = serializers.RegexField(r"^\d{2}:\d{2}$", error_messages={"invalid": _("Use a time like 08:00.")})
    end = serializers.RegexField(r"^\d{2}:\d{2}$", error_messages={"invalid": _("Use a time like 08:45.")})


class CalendarInputSerializer(serializers.Serializer):
    semester_start = BoundedDateField(required=False)
    semester_weeks = serializers.IntegerField(required=False, min_value=1, max_value=MAX_SEMESTER_WEEKS)
    sections = SectionTimeSerializer(many=True, required=False, min_length=1,  # type: ignore[call-arg]  # see below
                                     max_length=MAX_SECTIONS)  # many=True passes both on to the ListSerializer
    later_sections = SectionTimeSerializer(  # type: ignore[call-arg]
        many=True, required=False, max_length=MAX_SECTIONS,
        help_text="The school's second section times (winter or summer hours); an empty list drops them.")
    later_sections_from = BoundedDateField(required=False, allow_null=True,
                                           help_text="The date the second section times start.")

    def validate(self, attrs):
        if ("later_sections" in attrs) != ("later_sections_from" in attrs):
            raise serializers.ValidationError(
                {"later_sections": _("Second section times need both the times and the date they start.")},
                code="later_incomplete")
        return attrs

    def validate_semester_start(self, value):
        if value.weekday() != 0:
            raise serializers.ValidationError(_("Week 1 must start on a Monday."), code="not_monday")
        return value


class SectionTimeOutputSerializer(serializers.Serializer):
    section = serializers.IntegerField()
    start = serializers.CharField()
    end = serializers.CharField()


class CalendarOutputSerializer(ModelSerializer):
    sections = serializers.SerializerMethodField()
    later_sections = serializers.SerializerMethodField()
    semester_end = serializers.DateField(read_only=True)

    class Meta:
        model = CalendarSettings
        fields = ["semester_start", "semester_weeks", "semester_end", "sections", "later_sections",
                  "later_sections_from"]
        read_only_fields = fields

    @extend_schema_field(SectionTimeOutputSerializer(many=True))
    def get_sections(self, calendar: CalendarSettings) -> list[dict[str, object]]:
        return _numbered(calendar.section_times)

    @extend_schema_field(SectionTimeOutputSerializer(many=True))
    def get_later_sections(self, calendar: CalendarSettings) -> list[dict[str, object]]:
        return _numbered(calendar.later_section_times)


def _numbered(section_times: list[list[str]]) -> list[dict[str, object]]:
    return [{"section": number, "start": start, "end": end}
            for number, (start, end) in enumerate(section_times, start=1)]
