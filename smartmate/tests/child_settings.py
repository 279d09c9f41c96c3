"""Settings of a daphne child that a test starts: production's settings with the suite's password hasher.

A child with production's hashers re-hashed every test student's quick hash at production's cost on the first
sign-in (Django upgrades a hash whose rounds are below the configured ones) and padded every wrong password
to that cost; page tests and the API fuzz run spent a good part of their time there. The production-mode page
tests start their child on ``smartmate.settings`` itself, so the deployed hashers are still exercised.
"""

from django.conf import global_settings

from smartmate.settings import *  # noqa: F403 - these are production's settings, with one change below
from smartmate.tests.quick_hasher import hashers_for_tests

PASSWORD_HASHERS = hashers_for_tests(list(global_settings.PASSWORD_HASHERS))
