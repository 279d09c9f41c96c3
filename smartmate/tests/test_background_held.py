"""The embedded background pool: work handed over inside background_held() starts when the block ends."""

from __future__ import annotations

import threading

import pytest

from smartmate.platform.outbox.background import background_held, background_join, background_submit


def test_work_handed_over_inside_the_block_starts_only_when_it_ends():
    ran: list[str] = []
    with background_held():
        assert background_submit(lambda: ran.append("title")) is None
        with background_held():  # nested (a turn inside a turn's thread): the outer block starts it
            background_submit(lambda: ran.append("memory"))
        assert background_join(timeout=5) and ran == []

    assert background_join(timeout=5)
    assert sorted(ran) == ["memory", "title"]


def test_held_work_still_starts_when_the_block_fails():
    ran = threading.Event()
    with pytest.raises(RuntimeError), background_held():
        background_submit(ran.set)
        raise RuntimeError("the turn crashed")

    assert ran.wait(timeout=5)


def test_other_threads_are_not_held():
    ran = threading.Event()
    with background_held():
        other = threading.Thread(target=lambda: background_submit(ran.set))
        other.start()
        other.join()
        assert ran.wait(timeout=5)  # the hold is this thread's only
