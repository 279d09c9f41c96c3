"""start_next_semester: end the current semester (kept read-only) and start the next, with what comes along."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from agent.flow.working import Working
from agent.tools.support import common
from agent.tools.support.base import Tool, ToolContext, ToolResult
from agent.tools.support.once import call_once
from schedule.semesters.selectors import semester_current_get
from schedule.student_rules.services import study_rules_get
from smartmate.platform.exceptions import AppError
from taskclasses.semesters.services import Carry, semester_next_guess, semester_next_start


class StartNextSemesterTool(Tool):
    name = "start_next_semester"
    label = gettext_lazy("Start the next semester")
    pack = "schedule_write"
    description = ("开始新学期：本学期的课表、学习块、计划和考试以只读方式保留为往期学期，"
                   "新学期从空白课表开始（之后请学生导入新课表）。"
                   "first_monday（新学期第 1 周的星期一）和 weeks 不填则按校历或通常开学时间推算。"
                   "note_ids：要带走的未完成随口记（用 query_tasks 查 id）；protected：要保留的保护时间名称（不填则全部保留）；"
                   "keep_rules、keep_plans（未完成的计划）、keep_filler（按课程名沿用水课标记）默认 true。"
                   "学生确认后才执行，之后在新学期写入任何内容之前可以在学期页面撤销。")
    parameters = {
        "type": "object",
        "properties": {
            "first_monday": {"type": "string", "format": "date", "description": "YYYY-MM-DD，必须是星期一"},
            "weeks": {"type": "integer", "minimum": 1, "maximum": 30},
            "note_ids": {"type": "array", "items": {"type": "integer"}, "maxItems": 200},
            "protected": {"type": "array", "items": {"type": "string", "maxLength": 60}, "maxItems": 50},
            "keep_rules": {"type": "boolean"},
            "keep_plans": {"type": "boolean"},
            "keep_filler": {"type": "boolean"},
        },
        "additionalProperties": False,
    }
    writes = True

    def confirmation(self, args: Mapping[str, Any], ctx: ToolContext, working: Working | None) -> str:
        user = common.user_of(ctx)
        guess = semester_next_guess(user=user)
        return _("Start a new semester on %(first)s for %(weeks)s weeks; %(current)s is kept read-only. "
                 "Comes along: %(notes)s quick notes, protected times %(protected)s.") % {
            "first": args.get("first_monday", guess.first_monday.isoformat()), "weeks": args.get("weeks", guess.weeks),
            "current": semester_current_get(user=user).label, "notes": len(args.get("note_ids", [])),
            "protected": "、".join(_protected(user, args)) or "—"}

    def run(self, args: Mapping[str, Any], ctx: ToolContext, working: Working | None) -> ToolResult:
        user = common.user_of(ctx)
        guess = semester_next_guess(user=user)
        try:
            first_monday = date.fromisoformat(args["first_monday"]) if "first_monday" in args else guess.first_monday
        except ValueError:
            return common.failed(_("The new semester was not started."), "first_monday 请用 YYYY-MM-DD。",
                                 code="invalid_date")
        carry = Carry(note_ids=tuple(args.get("note_ids", ())), rules=args.get("keep_rules", True),
                      protected=tuple(_protected(user, args)), plans=args.get("keep_plans", True),
                      filler=args.get("keep_filler", True))

        def write() -> dict[str, Any]:
            past = semester_next_start(user=user, first_monday=first_monday, weeks=args.get("weeks", guess.weeks),
                                       carry=carry)
            return {"past_semester_id": past.pk, "past_semester": past.label,
                    "first_monday": first_monday.isoformat(), "weeks": args.get("weeks", guess.weeks)}

        try:
            body, _again = call_once(user=user, call_id=ctx.call_id, name=self.name, args=args, now=ctx.now,
                                     write=write)
        except AppError as exc:
            return common.failed(_("The new semester was not started."), f"没有开始新学期：{exc.message}", code=exc.code)
        body = {**body, "next_step": "请学生到导入页面导入新学期的课表。"}
        return common.done(_("Started the new semester; %(past)s is kept read-only.") % {"past": body["past_semester"]},
                           common.as_json(body), data=body)


def _protected(user: Any, args: Mapping[str, Any]) -> list[str]:
    if "protected" in args:
        return list(args["protected"])
    return [str(p["name"]) for p in study_rules_get(user=user).protected_times]


TOOL = StartNextSemesterTool()
