"""Input and output shapes of the quick-note API. Fields are listed explicitly."""

from __future__ import annotations

from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from smartmate.platform.serializers import ModelSerializer, RFC3339DateTimeField
from taskclasses.models import MAX_TITLE_LENGTH, Task
from taskclasses.notes.core.quick_add import Reading
from taskclasses.notes.models import QuadrantLesson
from taskclasses.notes.presenters import reading_label

NOTE_LIMIT = 500


class QuickNoteParseInputSerializer(serializers.Serializer):
    text = serializers.CharField(max_length=NOTE_LIMIT)


class ReadingOutputSerializer(serializers.Serializer):
    """One plausible deadline of an ambiguous note; the student picks one (or none)."""

    deadline = RFC3339DateTimeField(help_text="Send it back as the task's deadline to pick this reading.")
    has_time = serializers.BooleanField()
    is_past = serializers.BooleanField()
    weeks_ahead = serializers.IntegerField(help_text="Calendar weeks from this week: 0 this week, 1 next week.")
    remembered = serializers.BooleanField(help_text="The student picked this reading for the same phrasing before.")
    text = serializers.SerializerMethodField(help_text="The choice as the page shows it: 周五 10/9, 下周五 10/16.")

    def get_text(self, reading: Reading) -> str:
        return reading_label(reading)


class QuickNoteParseOutputSerializer(serializers.Serializer):
    title = serializers.CharField()
    deadline = RFC3339DateTimeField(allow_null=True)
    deadline_text = serializers.CharField()
    has_time = serializers.BooleanField()
    is_past = serializers.BooleanField()
    ambiguous = serializers.BooleanField()
    ambiguity_reason = serializers.CharField(allow_null=True)
    no_deadline_reason = serializers.CharField(allow_null=True)
    quadrant = serializers.IntegerField()
    quadrant_reason = serializers.CharField()
    estimated_sections = serializers.IntegerField(allow_null=True)
    urgency_threshold_at = RFC3339DateTimeField(allow_null=True)
    readings = ReadingOutputSerializer(many=True, help_text="When ambiguous: the plausible deadlines, earliest first.")
    confidence = serializers.FloatField(
        help_text="How sure the rules are of `deadline`: 1 stated, 0.8 a convention filled a gap, 0.6 the model "
                  "chose among plausible dates, 0 refused.")
    doubts = serializers.ListField(
        child=serializers.CharField(),
        help_text="Where the rules ran out (no_single_reading, unknown_time_word, importance_undecided); such a "
                  "line is worth POST tasks/quick-add/refine/ when a model is configured.")


class QuickNoteRefineOutputSerializer(serializers.Serializer):
    """The parse to show after the model's look at an uncertain line, and what it changed."""

    outcome = serializers.ChoiceField(
        choices=["refined", "unchanged", "sure", "no_model", "quota_exceeded", "timeout", "model_failed", "malformed"],
        help_text="refined: the model changed `changed`; sure: the rules had no doubt, no call was made; no_model: "
                  "no language model is set up here, the rules are the answer; the rest: the rules' answer stands "
                  "(quota used up, over the 2 s budget, the model failed, or its answer broke the contract).")
    changed = serializers.ListField(child=serializers.CharField(),
                                    help_text="Fields of the parse the model changed: title, quadrant, deadline, "
                                              "readings.")
    elapsed_ms = serializers.IntegerField()
    parse = QuickNoteParseOutputSerializer()


class TaskCreateInputSerializer(serializers.Serializer):
    """Either ``text`` (parsed, with optional edits) or a ``title`` with fields."""

    text = serializers.CharField(max_length=NOTE_LIMIT, required=False)
    title = serializers.CharField(max_length=MAX_TITLE_LENGTH, required=False)
    quadrant = serializers.ChoiceField(choices=Task.Quadrant.choices, required=False)
    deadline = RFC3339DateTimeField(required=False, allow_null=True)
    estimated_sections = serializers.IntegerField(min_value=1, max_value=8, required=False, allow_null=True)

    def validate(self, attrs: dict) -> dict:
        if "text" not in attrs and "title" not in attrs:
            raise serializers.ValidationError({"text": [_("Send the note as text, or a title.")]})
        if "text" not in attrs and "quadrant" not in attrs:
            raise serializers.ValidationError({"quadrant": [_("A task without text needs a quadrant.")]})
        return attrs


class TaskUpdateInputSerializer(serializers.Serializer):
    title = serializers.CharField(max_length=MAX_TITLE_LENGTH, required=False)
    quadrant = serializers.ChoiceField(choices=Task.Quadrant.choices, required=False)
    deadline = RFC3339DateTimeField(required=False, allow_null=True)
    estimated_sections = serializers.IntegerField(min_value=1, max_value=8, required=False, allow_null=True)
    urgency_threshold_at = RFC3339DateTimeField(required=False, allow_null=True)


class TaskListQuerySerializer(serializers.Serializer):
    quadrant = serializers.ChoiceField(choices=Task.Quadrant.choices, required=False)
    q = serializers.CharField(max_length=100, required=False, allow_blank=True)
    deadline_before = RFC3339DateTimeField(required=False)
    deadline_after = RFC3339DateTimeField(required=False)
    completed = serializers.BooleanField(required=False, help_text="Leave out to list both.")


class PlacedBlockSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    week = serializers.IntegerField()
    day = serializers.IntegerField()
    start_section = serializers.IntegerField()
    end_section = serializers.IntegerField()
    starts_at = RFC3339DateTimeField()
    ends_at = RFC3339DateTimeField()


class TaskOutputSerializer(ModelSerializer):
    overdue = serializers.SerializerMethodField()
    promoted = serializers.BooleanField(source="is_promoted", read_only=True)
    blocks = PlacedBlockSerializer(source="events", many=True, read_only=True)
    # Empty until the first automatic change; the schema must allow "" beside the reasons.
    auto_reason = serializers.ChoiceField(choices=Task.AutoReason.choices, allow_blank=True, read_only=True)

    class Meta:
        model = Task
        fields = ["id", "title", "quadrant", "deadline", "deadline_ambiguous", "source_text", "estimated_sections",
                  "urgency_threshold_at", "completed", "completed_at", "promoted", "auto_reason", "auto_changed_at",
                  "overdue", "blocks", "created_at", "updated_at"]
        read_only_fields = fields

    def get_overdue(self, task: Task) -> bool:
        return bool(task.deadline and not task.completed and task.deadline < timezone.now())


class TaskScheduleInputSerializer(serializers.Serializer):
    week = serializers.IntegerField(min_value=1, max_value=30, required=False)


class LessonOutputSerializer(ModelSerializer):
    """A quadrant quick add learned from the student's correction."""

    quadrant_label = serializers.SerializerMethodField()

    class Meta:
        model = QuadrantLesson
        fields = ["id", "keyword", "quadrant", "quadrant_label", "learned_from", "times", "created_at", "updated_at"]
        read_only_fields = fields

    def get_quadrant_label(self, lesson: QuadrantLesson) -> str:
        return str(Task.Quadrant(lesson.quadrant).label)
