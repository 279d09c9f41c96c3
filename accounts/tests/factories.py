"""Test data builders for accounts."""

from __future__ import annotations

from datetime import date
from typing import cast

import factory

from accounts.models import User
from schedule.models import CalendarSettings, default_section_times

DEFAULT_PASSWORD = "correct-horse-battery-staple"


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = User
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"student{n}")
    email = factory.LazyAttribute(lambda o: f"{o.username}@example.edu")
    time_zone = "Asia/Shanghai"
    password = factory.PostGenerationMethodCall("set_password", DEFAULT_PASSWORD)

    # Every test student has the same semester (week 1 from 2026-09-07); the calendar is the schedule's.
    @factory.post_generation
    def calendar(self, create: bool, extracted: object, **kwargs: object) -> None:
        if create:
            user = cast(User, self)  # factory_boy passes the User it built, not the factory
            user.save()
            CalendarSettings.objects.get_or_create(
                user=user,
                defaults={"semester_start": date(2026, 9, 7), "semester_weeks": 20,
                          "section_times": default_section_times()},
            )
