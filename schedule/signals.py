"""What the schedule tells the apps above it, without knowing them."""

from django.dispatch import Signal

# Sent inside the deleting transaction with ``user`` and ``item_id`` when a study block's event is
# deleted: the block itself is the task classes' business (it waits to be planned again).
study_block_removed = Signal()

# Sent after a timetable import wrote its courses (on commit), with ``user`` and ``changeset_id``: what
# the apps above remember of the old timetable may no longer hold.
timetable_imported = Signal()
