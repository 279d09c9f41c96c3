"""Shapes of the planning API: feasibility, previews, blocks, change sets."""

from __future__ import annotations

from rest_framework import serializers

from smartmate.platform.serializers import RFC3339DateTimeField


class FeasibilitySerializer(serializers.Serializer):
    class_id = serializers.IntegerField()
    name = serializers.CharField()
    demand = serializers.IntegerField()
    candidate_slots = serializers.IntegerField()
    placed = serializers.IntegerField()
    slack = serializers.IntegerField()


class PreviewCreateInputSerializer(serializers.Serializer):
    # Bounded by the id column (signed 64-bit): a larger number would overflow the database driver.
    task_class_ids = serializers.ListField(child=serializers.IntegerField(min_value=1, max_value=2**63 - 1),
                                           min_length=1, max_length=20)


class BlockMoveInputSerializer(serializers.Serializer):
    week = serializers.IntegerField(min_value=1, max_value=30)
    day = serializers.IntegerField(min_value=1, max_value=7)
    start_section = serializers.IntegerField(min_value=1, max_value=16)


class BlockAtSerializer(serializers.Serializer):
    """What a previewed block is called and where it goes, in sections and in real time."""

    content = serializers.CharField()
    week = serializers.IntegerField()
    day = serializers.IntegerField()
    start_section = serializers.IntegerField()
    end_section = serializers.IntegerField()
    starts_at = RFC3339DateTimeField()
    ends_at = RFC3339DateTimeField()


class PlacementSerializer(BlockAtSerializer):
    item_id = serializers.IntegerField()
    class_id = serializers.IntegerField()
    host_event_id = serializers.IntegerField(allow_null=True)
    host_title = serializers.CharField(allow_null=True)
    reason = serializers.CharField(allow_blank=True, help_text="Why the block goes there, in the student's language.")


class UnplacedSerializer(serializers.Serializer):
    item_id = serializers.IntegerField()
    class_id = serializers.IntegerField()
    content = serializers.CharField()
    reason = serializers.CharField()
    detail = serializers.CharField()


class MoveSerializer(BlockAtSerializer):
    """An existing study or quick-note block the preview moves (assistant previews): from → to."""

    kind = serializers.CharField()
    item_id = serializers.IntegerField(allow_null=True)
    task_id = serializers.IntegerField(allow_null=True)
    event_id = serializers.IntegerField(allow_null=True)
    host_event_id = serializers.IntegerField(allow_null=True)
    from_week = serializers.IntegerField()
    from_day = serializers.IntegerField()
    from_start_section = serializers.IntegerField()
    from_end_section = serializers.IntegerField()
    from_starts_at = RFC3339DateTimeField()
    reason = serializers.CharField(allow_blank=True, help_text="Why the block goes there, in the student's language.")


class NoteSerializer(BlockAtSerializer):
    """A quick-note task the preview puts on the board."""

    task_id = serializers.IntegerField()


class PreviewOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    status = serializers.CharField()
    source = serializers.CharField()  # type: ignore[assignment]  # a declared field: the metaclass takes it off
    expires_at = RFC3339DateTimeField()
    task_class_ids = serializers.ListField(child=serializers.IntegerField())
    placements = PlacementSerializer(many=True)
    moves = MoveSerializer(many=True)
    notes = NoteSerializer(many=True)
    unplaced = UnplacedSerializer(many=True)
    feasibility = FeasibilitySerializer(many=True)


class ChangeSetOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.CharField()
    summary = serializers.CharField()
    preview_id = serializers.IntegerField(allow_null=True)
    applied_at = RFC3339DateTimeField()
    undone_at = RFC3339DateTimeField(allow_null=True)
    events = serializers.IntegerField(source="event_count")
    embedded = serializers.IntegerField(source="embedded_count")


# --- Direct edits of the board ---------------------------------------------------------------------------

class DirectEditInputSerializer(serializers.Serializer):
    version = serializers.CharField(required=False, allow_blank=True, max_length=64)


class DirectMoveInputSerializer(BlockMoveInputSerializer, DirectEditInputSerializer):
    allow_reorder = serializers.BooleanField(required=False, default=False)
    dry_run = serializers.BooleanField(required=False, default=False)  # only say where it would go


class _PlaceSerializer(serializers.Serializer):
    """Where a block is or could be: week, day, sections, date and times (the student's zone), its host."""

    week = serializers.IntegerField()
    day = serializers.IntegerField()
    start_section = serializers.IntegerField()
    end_section = serializers.IntegerField()
    date = serializers.DateField()
    starts_at = RFC3339DateTimeField()
    ends_at = RFC3339DateTimeField()
    host_event_id = serializers.IntegerField(allow_null=True)


class BoardBlockSerializer(_PlaceSerializer):
    """A placed block: where and when (the student's time zone), its status and its version."""

    kind = serializers.CharField()
    id = serializers.IntegerField()
    title = serializers.CharField()
    status = serializers.CharField()
    version = serializers.CharField()
    pinned = serializers.BooleanField()


class DirectEditOutputSerializer(serializers.Serializer):
    """The change set to undo (its id and the undo bar's line) and the block as it is now (null: removed)."""

    changeset_id = serializers.IntegerField()
    summary = serializers.CharField()
    block = BoardBlockSerializer(allow_null=True)


class SlotSuggestionSerializer(_PlaceSerializer):
    host_title = serializers.CharField(allow_null=True)
    text = serializers.CharField()


class MoveCheckSerializer(serializers.Serializer):
    """A dry run's answer: the move would be allowed, and this is where the block would go."""

    dry_run = serializers.BooleanField()
    place = SlotSuggestionSerializer()


class BlockSuggestionsSerializer(serializers.Serializer):
    block = BoardBlockSerializer()
    suggestions = SlotSuggestionSerializer(many=True)


class SuggestionsQuerySerializer(serializers.Serializer):
    limit = serializers.IntegerField(required=False, default=5, min_value=1, max_value=20)
