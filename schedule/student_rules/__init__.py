"""The student's own rules for study blocks (the model, its service and API); the pure rules are
``schedule/core/student_rules.py``."""
