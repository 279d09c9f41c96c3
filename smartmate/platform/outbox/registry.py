"""Topics and the consumers that handle them.

To add a consumer: write a module with a ``topic_register`` call and a ``@consumes`` function (copy
``smartmate/platform/outbox/probe.py``), then add the module to ``CONSUMER_MODULES``. A consumer receives the
event inside its own transaction, which also holds its receipt: whatever it writes to the database
happens exactly once per event. It must not call anything outside the database that cannot be
repeated; use ``transaction.on_commit`` for that.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from smartmate.platform.models import OutboxEvent

# The explicit list of modules that register topics and consumers.
CONSUMER_MODULES: tuple[str, ...] = ("smartmate.platform.outbox.probe", "agent.outbox_topics", "memory.consumers",
                                     "taskclasses.reminders.outbox")

QUEUES = ("default", "agent", "memory")


@dataclass(frozen=True)
class Consumer:
    name: str
    handle: Callable[[OutboxEvent], None]


@dataclass(frozen=True)
class Topic:
    """A topic's delivery rules: its Celery queue, whether one aggregate's events run in order, and
    whether its consumers are slow enough (model calls) to run beside the publisher on embedded defaults."""

    name: str
    queue: str = "default"
    ordered: bool = False
    background: bool = False
    consumers: tuple[Consumer, ...] = field(default=())


_topics: dict[str, Topic] = {}
_loaded = False


class PermanentError(Exception):
    """Raised by a consumer for an event that can never succeed: the event goes dead at once."""


def topic_register(name: str, *, queue: str = "default", ordered: bool = False, background: bool = False) -> Topic:
    """Declare a topic; declaring it again with the same rules is a no-op.

    ``background``: on embedded defaults (eager Celery) its events run on the background pool
    (``smartmate.platform.outbox.background``) instead of inline in the publishing thread.
    """
    if queue not in QUEUES:
        raise ValueError(f"Unknown queue {queue!r} for topic {name!r}; use one of {', '.join(QUEUES)}.")
    existing = _topics.get(name)
    if existing is not None:
        if (existing.queue, existing.ordered, existing.background) != (queue, ordered, background):
            raise ValueError(f"Topic {name!r} is already registered with other rules.")
        return existing
    _topics[name] = Topic(name=name, queue=queue, ordered=ordered, background=background)
    return _topics[name]


def consumes(topic: str, *, name: str) -> Callable[[Callable[[OutboxEvent], None]], Callable[[OutboxEvent], None]]:
    """Register the decorated function as consumer ``name`` of ``topic`` (declared first)."""

    def decorator(handle: Callable[[OutboxEvent], None]) -> Callable[[OutboxEvent], None]:
        spec = _topics.get(topic)
        if spec is None:
            raise ValueError(f"Declare topic {topic!r} with topic_register before its consumers.")
        if any(consumer.name == name for consumer in spec.consumers):
            raise ValueError(f"Consumer {name!r} is already registered for topic {topic!r}.")
        _topics[topic] = replace(spec, consumers=(*spec.consumers, Consumer(name=name, handle=handle)))
        return handle

    return decorator


def topic_get(name: str) -> Topic | None:
    """Return the topic with its consumers, or None when nothing is registered for it."""
    _ensure_loaded()
    return _topics.get(name)


def topic_list() -> list[Topic]:
    _ensure_loaded()
    return sorted(_topics.values(), key=lambda topic: topic.name)


@contextmanager
def topics_overridden() -> Iterator[None]:
    """Let a test register topics and consumers, then restore the registry as it was."""
    _ensure_loaded()
    saved = dict(_topics)
    try:
        yield
    finally:
        _topics.clear()
        _topics.update(saved)


def _ensure_loaded() -> None:
    global _loaded
    if not _loaded:
        for module in CONSUMER_MODULES:
            import_module(module)
        _loaded = True
