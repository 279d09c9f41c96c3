"""Input and output shapes of the task-class API. Fields are listed explicitly.

Inputs check types only; the services check the rules (window, exclusions, counts, lengths) so the
API, the pages and the assistant get the same codes and messages.
"""

from __future__ import annotations

from rest_framework import serializers

from smartmate.platform.serializers import BoundedDateField, RFC3339DateTimeField
from taskclasses.models import TaskClass, TaskItem


class TaskClassCreateInputSerializer(serializers.Serializer):
    """A new class: its fields and either ``items`` (contents in order) or ``item_count``."""

    name = serializers.CharField(allow_blank=True, trim_whitespace=False)
    strategy = serializers.ChoiceField(choices=TaskClass.Strategy.choices, default=TaskClass.Strategy.STEADY)
    start_date = BoundedDateField()
    end_date = BoundedDateField()
    excluded_pairs = serializers.ListField(child=serializers.IntegerField(), default=list,
                                          help_text="Pairs of sections to avoid every day: 1 = sections 1-2, ...")
    excluded_days = serializers.ListField(child=serializers.IntegerField(), default=list,
                                         help_text="Days to avoid: 1 = Monday ... 7 = Sunday.")
    allow_filler = serializers.BooleanField(default=True)
    section_budget = serializers.IntegerField(allow_null=True, required=False, default=None)
    exam_id = serializers.IntegerField(allow_null=True, required=False, default=None,
                                       help_text="The exam a spaced class revises for (required for spaced).")
    items = serializers.ListField(child=serializers.CharField(allow_blank=True, trim_whitespace=False),
                                  required=False, help_text="The blocks' contents in order (1-200).")
    item_count = serializers.IntegerField(required=False, allow_null=True,
                                          help_text='Instead of items: this many blocks named "<name> #n".')


class TaskClassUpdateInputSerializer(serializers.Serializer):
    """Any subset of the class's fields; blocks are changed through their own endpoints."""

    name = serializers.CharField(allow_blank=True, trim_whitespace=False, required=False)
    strategy = serializers.ChoiceField(choices=TaskClass.Strategy.choices, required=False)
    start_date = BoundedDateField(required=False)
    end_date = BoundedDateField(required=False)
    excluded_pairs = serializers.ListField(child=serializers.IntegerField(), required=False)
    excluded_days = serializers.ListField(child=serializers.IntegerField(), required=False)
    allow_filler = serializers.BooleanField(required=False)
    section_budget = serializers.IntegerField(allow_null=True, required=False)
    exam_id = serializers.IntegerField(allow_null=True, required=False)


class TaskItemAddInputSerializer(serializers.Serializer):
    content = serializers.CharField(allow_blank=True, trim_whitespace=False)
    position = serializers.IntegerField(required=False, allow_null=True, default=None,
                                        help_text="1 = first; default: after the last block.")
    sections = serializers.IntegerField(required=False, default=2, help_text="Always 2: a block is one aligned pair.")


class TaskItemUpdateInputSerializer(serializers.Serializer):
    content = serializers.CharField(allow_blank=True, trim_whitespace=False, required=False)
    sections = serializers.IntegerField(required=False, help_text="Always 2: a block is one aligned pair.")


class TaskItemsReorderInputSerializer(serializers.Serializer):
    item_ids = serializers.ListField(child=serializers.IntegerField(min_value=1, max_value=2**63 - 1), allow_empty=True,
                                     help_text="Every block id of the class, each once, in the new order.")


class ItemPlacementOutputSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=["event", "embedded"],
                                   help_text="event: its own block in free time; embedded: inside a filler course.")
    event_id = serializers.IntegerField(help_text="The block's own event, or the filler course meeting it sits in.")
    week = serializers.IntegerField()
    day = serializers.IntegerField()
    start_section = serializers.IntegerField()
    end_section = serializers.IntegerField()
    starts_at = RFC3339DateTimeField(allow_null=True)
    ends_at = RFC3339DateTimeField(allow_null=True)
    host_title = serializers.CharField()


class TaskItemOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    order = serializers.IntegerField()
    content = serializers.CharField()
    sections = serializers.IntegerField()
    status = serializers.ChoiceField(choices=TaskItem.Status.choices)
    placement = ItemPlacementOutputSerializer(allow_null=True)


class TaskClassOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    strategy = serializers.ChoiceField(choices=TaskClass.Strategy.choices)
    start_date = serializers.DateField()
    end_date = serializers.DateField()
    excluded_pairs = serializers.ListField(child=serializers.IntegerField())
    excluded_days = serializers.ListField(child=serializers.IntegerField())
    allow_filler = serializers.BooleanField()
    section_budget = serializers.IntegerField(allow_null=True)
    exam_id = serializers.IntegerField(allow_null=True)
    item_count = serializers.IntegerField()
    placed_count = serializers.IntegerField()
    created_at = RFC3339DateTimeField()
    updated_at = RFC3339DateTimeField()


class TaskClassDetailOutputSerializer(serializers.Serializer):
    """A class with its blocks in order; built from a ``TaskClassDetail``."""

    id = serializers.IntegerField(source="task_class.pk")
    name = serializers.CharField(source="task_class.name")
    strategy = serializers.ChoiceField(source="task_class.strategy", choices=TaskClass.Strategy.choices)
    start_date = serializers.DateField(source="task_class.start_date")
    end_date = serializers.DateField(source="task_class.end_date")
    excluded_pairs = serializers.ListField(source="task_class.excluded_pairs", child=serializers.IntegerField())
    excluded_days = serializers.ListField(source="task_class.excluded_days", child=serializers.IntegerField())
    allow_filler = serializers.BooleanField(source="task_class.allow_filler")
    section_budget = serializers.IntegerField(source="task_class.section_budget", allow_null=True)
    exam_id = serializers.IntegerField(source="task_class.exam_id", allow_null=True)
    item_count = serializers.IntegerField()
    placed_count = serializers.IntegerField()
    created_at = RFC3339DateTimeField(source="task_class.created_at")
    updated_at = RFC3339DateTimeField(source="task_class.updated_at")
    items = TaskItemOutputSerializer(many=True)
