"""The Celery application. Eager (in-process) unless a broker is configured."""

from __future__ import annotations

import os

from celery import Celery
from kombu import Queue

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "smartmate.settings")

app = Celery("smartmate")
app.config_from_object("django.conf:settings", namespace="CELERY")
# Long LLM work and memory extraction get their own queues so a slow job never blocks a quick one.
app.conf.task_queues = (Queue("default"), Queue("agent"), Queue("memory"))
app.autodiscover_tasks()
# After each (re)connection a worker has what waits in the tables sent again (a restarted Redis is empty).
app.steps["consumer"].add("smartmate.platform.broker:ResendAfterConnect")
