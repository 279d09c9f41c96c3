"""Benchmark dragging a placed block on the week board in Chromium: drop to saved move, drop to redrawn board.

    python -m bench.board_drag_bench [--drags 20]

On a fresh migrated database (SQLite in a temporary folder, or ``<name>_bench`` when ``DATABASE_URL``
names MySQL; dropped afterwards) with the demo student of ``manage.py seed_demo`` and one quick note
placed in week 14, a daphne child serves the site (as the page tests do) and Debian's Chromium
(``CHROMIUM_PATH``, default /usr/bin/chromium) logs in as the demo student and drags the note back
and forth between two free cells ``--drags`` times. For each drag it records, in the page, the time
from the drop to the move API's answer (the move is saved) and from the drop to the reloaded board
showing its undo bar; it prints p50 / p95 / best of each.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

from bench.harness import bench_database, django_setup_for_bench

WEEK = 14  # a week after the demo's current one (13), so nothing on it has begun and locked
# Recorded in the page (it reloads after each move, so the marks live in localStorage): when the drop
# happened, and when the move API answered with its change set.
MARKS = """
document.addEventListener("drop", () => {
  localStorage.setItem("bench.drop", String(performance.timeOrigin + performance.now()));
}, true);
const plainFetch = window.fetch;
window.fetch = async (...args) => {
  const response = await plainFetch(...args);
  if (String(args[0]).includes("/move/")) {
    localStorage.setItem("bench.saved", String(performance.timeOrigin + performance.now()));
    localStorage.setItem("bench.status", String(response.status));
  }
  return response;
};
"""


def free_pairs(user, week: int, wanted: int = 2) -> list[tuple[int, int]]:
    """The first ``wanted`` (day, first section) pairs on weekdays of ``week`` with both sections free."""
    from schedule.models import ScheduleSlot

    taken = set(ScheduleSlot.objects.filter(user=user, week=week).values_list("day", "section"))
    found = [(day, start) for start in (1, 3, 5, 7, 9) for day in range(1, 6)
             if (day, start) not in taken and (day, start + 1) not in taken]
    return found[:wanted]


def seed(user) -> tuple[int, list[tuple[int, int]]]:
    """A quick note placed on the first of two free pairs of WEEK; return its task id and the pairs."""
    from schedule.models import ScheduleEvent
    from schedule.services.events import Span, event_create
    from taskclasses.notes.services import task_create

    pairs = free_pairs(user, WEEK)
    task = task_create(user=user, title="整理实验数据", quadrant=2, estimated_sections=2)
    day, start = pairs[0]
    event_create(user=user, title=task.title, span=Span(WEEK, day, start, start + 1),
                 kind=ScheduleEvent.Kind.QUICK_NOTE, task=task)
    return task.pk, pairs


def drag_times(base_url: str, username: str, password: str, task_id: int, pairs: list[tuple[int, int]],
               drags: int) -> tuple[list[float], list[float]]:
    """Drag the note between the two pairs ``drags`` times; return drop-to-saved and drop-to-redrawn ms."""
    import os

    from playwright.sync_api import sync_playwright

    from smartmate.tests.live_server import CHROMIUM, CHROMIUM_ARGS

    saved, redrawn = [], []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=os.environ.get("CHROMIUM_PATH", CHROMIUM),
                                             args=CHROMIUM_ARGS)
        page = browser.new_page(locale="zh-CN", timezone_id="Asia/Shanghai", viewport={"width": 1280, "height": 1200})
        page.set_default_timeout(30_000)
        page.add_init_script(MARKS)
        page.goto(f"{base_url}/accounts/login/")
        page.fill("#id_username", username)
        page.fill("#id_password", password)
        page.click("[data-test=login-submit]")
        page.wait_for_url(f"{base_url}/")
        page.goto(f"{base_url}/board/?week={WEEK}")
        block = f'td[data-block-kind="note"][data-block-id="{task_id}"]'
        for n in range(drags):
            day, start = pairs[(n + 1) % 2]
            page.wait_for_selector("#board-edit[data-ready=true]", state="attached")
            page.evaluate("localStorage.removeItem('bench.saved')")
            page.drag_and_drop(block, f'td.free[data-day="{day}"][data-section="{start}"]')
            page.wait_for_selector(f'{block}[data-day="{day}"][data-section="{start}"]')
            page.wait_for_selector("[data-test=edit-undo]:not([hidden])")
            now = page.evaluate("performance.timeOrigin + performance.now()")
            marks = page.evaluate("[localStorage.getItem('bench.drop'), localStorage.getItem('bench.saved'),"
                                  " localStorage.getItem('bench.status')]")
            assert marks[2] == "200", f"the move answered {marks[2]}"
            saved.append(float(marks[1]) - float(marks[0]))
            redrawn.append(now - float(marks[0]))
        browser.close()
    return saved, redrawn


def line(label: str, samples: list[float]) -> str:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return f"{label:<34} p50 {statistics.median(samples):7.1f} ms   p95 {p95:7.1f} ms   best {ordered[0]:7.1f} ms"


def main(argv: list[str] | None = None) -> int:
    """Print the figures; return 0."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--drags", type=int, default=20)
    args = parser.parse_args(argv)

    django_setup_for_bench()
    from smartmate.demo import DEMO_PASSWORD, seed_demo
    from smartmate.tests.live_server import DEPLOYED_SETTINGS, daphne_serving

    with bench_database() as name, tempfile.TemporaryDirectory(prefix="smartmate-drag-") as folder:
        user, _summary = seed_demo()
        task_id, pairs = seed(user)
        with daphne_serving(name, Path(folder) / "daphne.log", {"DJANGO_SETTINGS_MODULE": DEPLOYED_SETTINGS}) \
                as base_url:
            saved, redrawn = drag_times(base_url, user.username, DEMO_PASSWORD, task_id, pairs, args.drags)
        print(f"demo student, a quick note dragged between week {WEEK} cells {pairs}; {args.drags} drags "
              f"(daphne with DEBUG on, as the page tests run it)")
        print(line("drop -> move saved (API answered)", saved))
        print(line("drop -> board redrawn (undo bar)", redrawn))
    return 0


if __name__ == "__main__":
    sys.exit(main())
