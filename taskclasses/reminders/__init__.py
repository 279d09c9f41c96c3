"""Reminders: the student's lead times and quiet hours, the reminders beat produces, and their live delivery.

``models`` (settings and reminder rows), ``rules`` (lead-time and quiet-hour arithmetic), ``services``
(produce, read, settings), ``outbox`` (the delivery consumer: exactly once per reminder), ``live``
(the channel-layer send), ``consumers`` (the per-student notifications socket), ``feed`` (the
calendar feed's alarms), ``tasks`` (the beat task), ``api/`` and ``views`` (settings form).
"""
