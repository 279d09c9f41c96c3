"""query_past_semester: answer about a semester that has ended (its study blocks, courses, exams, workload)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from agent.flow.working import Working
from agent.tools.support import common
from agent.tools.support.base import Tool, ToolContext, ToolResult
from schedule.core.semester_archive import SemesterArchive, record_to_json, study_blocks_by_plan, workload_of
from schedule.semesters.models import Semester
from schedule.semesters.selectors import semester_current_get, semester_list


class QueryPastSemesterTool(Tool):
    name = "query_past_semester"
    label = gettext_lazy("Look up a past semester")
    pack = "schedule_read"
    description = ("查询已经结束的往期学期（只读）：学习块按计划统计完成、错过、未标记的次数（可按关键词筛选，如“高数”），"
                   "以及课程、考试和每周负荷。semester 不填即上学期；也可给往期学期的 id 或名称（如“2026 春季学期”）。"
                   "回答“上学期高数复习了多少次”这类问题时用它。")
    parameters = {
        "type": "object",
        "properties": {
            "semester": {"type": ["integer", "string"], "description": "往期学期 id 或名称；不填 = 上学期"},
            "keyword": {"type": "string", "maxLength": 50, "description": "只统计计划名、学习块或所在课程含这个词的"},
        },
        "additionalProperties": False,
    }

    def run(self, args: Mapping[str, Any], ctx: ToolContext, working: Working | None) -> ToolResult:
        user = common.user_of(ctx)
        past = _semester(list(semester_list(user=user)), args.get("semester"))
        if past is None:
            names = "、".join(s.label for s in semester_list(user=user)) or "没有往期学期"
            return common.failed(_("No such past semester."),
                                 f"没有找到这个往期学期。现在是{semester_current_get(user=user).label}；往期：{names}。",
                                 code="semester_not_found")
        archive = SemesterArchive.from_json(Semester.objects.get(pk=past.pk).document)
        keyword = str(args.get("keyword", "")).strip()
        workload = workload_of(archive)
        result = {
            "semester": {"id": past.pk, "name": past.label, "first_monday": past.first_monday.isoformat(),
                         "last_day": past.last_day.isoformat(), "weeks": past.weeks},
            "keyword": keyword,
            "study_blocks_by_plan": [{**record_to_json(count), "total": count.total}
                                     for count in study_blocks_by_plan(archive, keyword)],
            "totals": {"course_sections": workload.course_sections, "study_sections": workload.study_sections,
                       "done_blocks": workload.done_blocks, "missed_blocks": workload.missed_blocks},
            "courses": [c.name for c in archive.courses],
            "exams": [record_to_json(e) for e in archive.exams],
        }
        return common.done(_("Read %(name)s.") % {"name": past.label}, common.as_json(result),
                           data={"semester_id": past.pk})


def _semester(past: list[Semester], wanted: object) -> Semester | None:
    """The past semester named by id or name; none named: the latest (last semester)."""
    if wanted is None or wanted == "":
        return past[0] if past else None
    if isinstance(wanted, int) and not isinstance(wanted, bool):
        return next((s for s in past if s.pk == wanted), None)
    text = str(wanted).replace(" ", "")
    return next((s for s in past if s.label.replace(" ", "") == text or str(s.pk) == text), None)


TOOL = QueryPastSemesterTool()
