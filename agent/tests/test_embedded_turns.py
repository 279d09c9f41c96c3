"""The embedded turn pool: bounded, and fair between students."""

from __future__ import annotations

import threading
import time

from agent import embedded_turns
from agent.embedded_turns import EmbeddedTurns


def _recording(pool: EmbeddedTurns):
    started: list[str] = []
    release = threading.Event()

    def turn(name: str):
        def work():
            started.append(name)
            release.wait(5)
        return work

    return started, release, turn


def test_one_student_cannot_hold_every_thread():
    # The probe: four slow turns of one student starved every other student's turn for 83 s.
    pool = EmbeddedTurns(threads=lambda: 4, per_student=lambda: 1)
    started, release, turn = _recording(pool)
    for index in range(4):
        pool.submit(student_id=1, turn_id=f"a{index}", work=turn(f"a{index}"))
    pool.submit(student_id=2, turn_id="b0", work=turn("b0"))
    deadline = time.monotonic() + 2
    while len(started) < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert sorted(started) == ["a0", "b0"]
    release.set()
    assert pool.join(5)
    assert sorted(started) == ["a0", "a1", "a2", "a3", "b0"]
    assert started.index("a1") < started.index("a2") < started.index("a3")  # a student's turns keep their order
    pool.shutdown()


def test_a_failing_turn_frees_its_place_for_the_next():
    pool = EmbeddedTurns(threads=lambda: 2, per_student=lambda: 1)
    done = []

    def boom():
        raise RuntimeError("a crashed turn")

    pool.submit(student_id=1, turn_id="x", work=boom)
    pool.submit(student_id=1, turn_id="y", work=lambda: done.append("y"))
    assert pool.join(5)
    assert done == ["y"]
    assert pool.shutdown()


def test_join_says_when_turns_are_still_running():
    pool = EmbeddedTurns(threads=lambda: 1, per_student=lambda: 1)
    _started, release, turn = _recording(pool)
    pool.submit(student_id=1, turn_id="slow", work=turn("slow"))
    assert pool.join(0.1) is False
    release.set()
    assert pool.shutdown(5)


def test_the_process_pool_starts_on_first_use_and_a_shutdown_stops_it_for_good():
    ran: list[str] = []
    embedded_turns.submit(student_id=1, turn_id="a", work=lambda: ran.append("a"))
    first = embedded_turns.start()

    assert embedded_turns.shutdown(5) and ran == ["a"]
    embedded_turns.submit(student_id=1, turn_id="b", work=lambda: ran.append("b"))

    assert embedded_turns.start() is not first
    assert embedded_turns.shutdown(5) and ran == ["a", "b"]
