"""Semesters: a student's past terms, frozen and readable, and the start of the next one."""
