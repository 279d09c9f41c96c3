"""What the schedule tells the apps above it, without knowing them."""

from django.dispatch import Signal

# Sent inside the deleting transaction with ``user`` and ``item_id`` when a study block's event is
# deleted: the block itself is the task classes' business (it waits to be planned again).
study_block_removed = Signal()
