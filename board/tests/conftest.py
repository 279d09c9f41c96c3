"""Planning test fixtures: the schedule's frozen clock before the factories' study windows."""

from schedule.tests.conftest import before_week_three  # noqa: F401 - a fixture, found by name
