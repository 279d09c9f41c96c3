"""What the accounts app announces; apps above it listen (accounts imports none of them)."""

from django.dispatch import Signal

# Sent inside the transaction that signs a student out or changes their password, with ``user`` and
# ``reason`` ("signed_out" or "password_changed"). Receivers end whatever else lets the old
# credentials in: unused websocket tickets (agent), the calendar feed's secret address (schedule).
credentials_revoked = Signal()

SIGNED_OUT = "signed_out"
PASSWORD_CHANGED = "password_changed"

# Sent inside the transaction that creates a student's account, with ``user``. Receivers set up what
# the student has from the start: their calendar settings with a guessed semester (schedule).
user_registered = Signal()
