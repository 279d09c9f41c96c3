"""One natural line per change set (changeset_summaries), the week page's banner that uses it, and the
week board's ids, versions and series weeks that let the page edit what it shows."""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from board.changeset_summaries import changeset_summary, place_label
from board.direct_edits import block_get, block_mark, block_move, block_remove
from board.planning import preview_create
from board.previews import preview_apply
from schedule.models import ChangeSet, ScheduleEvent
from schedule.services.event_series import event_series_create
from schedule.services.events import Span, event_create
from taskclasses.models import TaskItem
from taskclasses.tests.factories import embed_item, make_task, make_task_class, place_item

pytestmark = pytest.mark.usefixtures("before_week_three")

ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-hans"}


@pytest.fixture
def placed_item(user) -> TaskItem:
    item = make_task_class(user, items=1).items.get()
    place_item(item, week=3, day=2, start=5)
    TaskItem.objects.filter(pk=item.pk).update(status=TaskItem.Status.PLACED)
    return item


def _zh(changeset: ChangeSet) -> str:
    with translation.override("zh-hans"):
        return changeset_summary(changeset)


def test_a_move_says_what_went_where(user, placed_item):
    result = block_move(user=user, kind="item", block_id=placed_item.pk, week=3, day=5, start_section=3)
    assert _zh(result.changeset) == "已把「概率论复习 #1」移到 第 3 周 周五 第 3–4 节"
    with translation.override("en"):
        assert changeset_summary(result.changeset) == "Moved “概率论复习 #1” to week 3 Friday sections 3–4"


def test_a_removal_says_the_block_waits_again(user, placed_item):
    result = block_remove(user=user, kind="item", block_id=placed_item.pk)
    assert _zh(result.changeset) == "已移除「概率论复习 #1」（回到待安排）"


def test_marks_say_done_or_not_done(user, placed_item):
    done = block_mark(user=user, kind="item", block_id=placed_item.pk, status=TaskItem.Status.DONE)
    assert _zh(done.changeset) == "已标记完成「概率论复习 #1」"
    TaskItem.objects.filter(pk=placed_item.pk).update(status=TaskItem.Status.PLACED)
    missed = block_mark(user=user, kind="item", block_id=placed_item.pk, status=TaskItem.Status.MISSED)
    assert _zh(missed.changeset) == "已标记未完成「概率论复习 #1」"


def test_a_quick_note_marked_done(user):
    task = make_task(user, title="交实验报告")
    event_create(user=user, title=task.title, span=Span(3, 3, 3, 4), kind=ScheduleEvent.Kind.QUICK_NOTE, task=task)
    result = block_mark(user=user, kind="note", block_id=task.pk, status=TaskItem.Status.DONE)
    assert _zh(result.changeset) == "已标记完成「交实验报告」"


def test_an_applied_plan_counts_its_blocks(user):
    task_class = make_task_class(user, items=2)
    changeset = preview_apply(user=user, preview_id=preview_create(user=user, task_class_ids=[task_class.pk]).pk)
    assert _zh(changeset) == "安排了 2 个学习块"


def test_a_kind_without_a_clause_or_an_empty_record_still_says_something():
    assert _zh(ChangeSet(kind="unknown")) == "上次改动"
    assert _zh(ChangeSet(kind=ChangeSet.Kind.MOVE, moves=[])) == "上次改动"


def test_a_single_section_place_reads_as_one_section():
    with translation.override("zh-hans"):
        assert place_label(5, 1, 9, 9) == "第 5 周 周一 第 9 节"


def test_the_week_page_banner_uses_the_summary(client, user, placed_item):
    block_move(user=user, kind="item", block_id=placed_item.pk, week=3, day=5, start_section=3)
    client.force_login(user)
    html = client.get("/board/?week=3", **ZH).content.decode()
    banner = re.search(r'data-test="undo-banner-summary">(.*?)</span>', html, re.S)
    assert banner is not None
    assert banner.group(1).startswith("上次改动：已把「概率论复习 #1」移到 第 3 周 周五 第 3–4 节（")


# --- What the board gives the page to edit -----------------------------------------------------------

def _attribute(html: str, marker: str, name: str) -> str:
    tag = html[html.rindex("<", 0, html.index(marker)):html.index(">", html.index(marker))]
    found = re.search(rf'{name}="([^"]*)"', tag)
    assert found is not None, tag
    return found.group(1)


def test_the_page_renders_the_version_the_move_api_checks(client, user, placed_item):
    client.force_login(user)
    html = client.get("/board/?week=3").content.decode()
    table = html[html.index('<table class="board"'):]
    version = _attribute(table, f'data-block-id="{placed_item.pk}"', "data-block-version")
    assert version == block_get(user=user, kind="item", block_id=placed_item.pk).version
    block_move(user=user, kind="item", block_id=placed_item.pk, week=3, day=5, start_section=3, version=version)


def test_a_block_inside_a_filler_course_has_its_id_and_version(client, user):
    item = make_task_class(user, items=1).items.get()
    host = embed_item(item)
    client.force_login(user)
    html = client.get("/board/?week=3").content.decode()
    cell = html[html.index(f'data-event-id="{host.pk}"'):html.index("</td>", html.index(f'data-event-id="{host.pk}"'))]
    assert f'data-block-kind="item" data-block-id="{item.pk}"' in cell and "概率论复习 #1" in cell
    version = _attribute(html, f'class="embedded editable" data-test="embedded" data-block-kind="item" '
                               f'data-block-id="{item.pk}"', "data-block-version")
    assert version == block_get(user=user, kind="item", block_id=item.pk).version
    agenda = html[html.index('data-test="agenda"'):]
    assert f'data-test="agenda-embedded" data-block-kind="item" data-block-id="{item.pk}"' in agenda


def test_a_repeating_event_carries_its_weeks_and_text_for_the_edit_dialog(client, user):
    event_series_create(user=user, title="社团例会", weeks="1-15单", day=3, start_section=9, end_section=10,
                        location="学生活动中心", note="带讲义")
    client.force_login(user)
    html = client.get("/board/?week=3").content.decode()
    marker = 'data-event-title="社团例会"'
    assert _attribute(html, marker, "data-series-weeks") == "1-15单"
    assert _attribute(html, marker, "data-event-note") == "带讲义"
    assert _attribute(html, marker, "data-end-section") == "10"


def test_a_preview_shows_embedded_blocks_without_edit_handles(client, user):
    item = make_task_class(user, items=1).items.get()
    embed_item(item)
    other = make_task_class(user, name="线代复习", items=1)
    preview = preview_create(user=user, task_class_ids=[other.pk])
    client.force_login(user)
    html = client.get(f"/board/?week=3&preview={preview.pk}").content.decode()
    assert "概率论复习 #1" in html and "data-block-version" not in html


def test_an_apply_names_only_what_happened_with_chinese_separators():
    # The "安排了 0 个学习块, 安排了 1 条随口记。": no zero part, no ASCII comma.
    assert _zh(ChangeSet(kind=ChangeSet.Kind.APPLY, item_ids=[], task_ids=[7])) == "安排了 1 条随口记"
    both = ChangeSet(kind=ChangeSet.Kind.APPLY, item_ids=[1, 2], task_ids=[7],
                     moves=[{"title": "概率论复习 #1"}])
    assert _zh(both) == "安排了 2 个学习块，移动了 1 个学习块，安排了 1 条随口记"
    with translation.override("en"):
        assert changeset_summary(both) == "2 blocks placed, 1 block moved, 1 quick note scheduled"
