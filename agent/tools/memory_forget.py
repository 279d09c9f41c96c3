"""forget_memories: forget for good what the student asked the assistant to stop remembering.

A write tool, so it waits behind the confirmation card, which names the memories that will go. The
model passes the memories' words as it saw them in the prompt's memory block (or the student's
key words); the server finds the student's active memories that say them, the same way for the
card and for the run, so what is accepted is what is forgotten. Nothing of a forgotten memory
stays (rows, versions, vectors, cached blocks, audit text), and the result the model reads holds
no memory text either.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from accounts.models import User
from agent.flow.working import Working
from agent.tools.support.base import Tool, ToolContext, ToolResult
from memory.selectors import memory_find_by_text, memory_forget_wants_everything
from memory.services.items import memory_forget_all, memory_forget_many


class ForgetMemoriesTool(Tool):
    name = "forget_memories"
    label = gettext_lazy("Forget memories")
    pack = "notes"
    description = ("彻底忘掉学生要求忘掉的长期记忆（连同历史版本，不可恢复）。只在学生明确说“别再记着…”“忘掉…”时使用；"
                   "某件事只是变了或不再成立时不要用。memories 写要忘掉的记忆原文（照抄提示中记忆段落里的内容），"
                   "或学生说的关键词；学生要忘掉全部记忆（如“把你记得的都忘掉”“forget everything”）时 memories 只写 [\"全部\"]。"
                   "确认卡片会列出将被忘掉的记忆。")
    parameters = {
        "type": "object",
        "properties": {
            "memories": {"type": "array", "minItems": 1, "maxItems": 10, "description": "要忘掉的记忆原文或关键词",
                         "items": {"type": "string", "minLength": 1, "maxLength": 300}},
        },
        "required": ["memories"],
        "additionalProperties": False,
    }
    writes = True

    def confirmation(self, args: Mapping[str, Any], ctx: ToolContext, working: Working | None) -> str:
        texts = list(args.get("memories", []))
        found = memory_find_by_text(user=User.objects.get(pk=ctx.user_id), texts=texts)
        if not found:
            return _("No memory matches this; nothing will be forgotten.")
        if memory_forget_wants_everything(texts=texts):
            return ngettext("Forget everything memory holds about you for good (%(count)d memory, with its history; "
                            "cannot be undone).",
                            "Forget everything memory holds about you for good (%(count)d memories, with their "
                            "history; cannot be undone).", len(found)) % {"count": len(found)}
        named = "、".join(f"“{item.content}”" for item in found)
        return _("Forget for good, with earlier versions (cannot be undone): %(memories)s.") % {"memories": named}

    def run(self, args: Mapping[str, Any], ctx: ToolContext, working: Working | None) -> ToolResult:
        user = User.objects.get(pk=ctx.user_id)
        found = memory_find_by_text(user=user, texts=list(args["memories"]))
        if not found:
            return ToolResult(status="failed", summary=_("No memory was forgotten."),
                              content="没有找到对应的记忆（可能从未记下，或已经忘掉了），什么都没有删除。",
                              data={"code": "memory_not_found"})
        if memory_forget_wants_everything(texts=list(args["memories"])):
            counts = memory_forget_all(user=user, confirm=True)  # history, jobs and audit text too
            summary = ngettext("Forgot %(count)d memory for good.", "Forgot %(count)d memories for good.",
                               len(found)) % {"count": len(found)}
            return ToolResult(status="done", summary=summary, content=f"已彻底忘掉全部 {len(found)} 条记忆（连同历史版本）。",
                              data={"forgotten": len(found), "versions": counts["memories"]})
        removed = memory_forget_many(user=user, memory_ids=[item.pk for item in found])
        count = len(found)
        summary = ngettext("Forgot %(count)d memory for good.", "Forgot %(count)d memories for good.", count) % {
            "count": count}
        return ToolResult(status="done", summary=summary, content=f"已彻底忘掉 {count} 条记忆（连同历史版本）。",
                          data={"forgotten": count, "versions": len(removed)})


TOOL = ForgetMemoriesTool()
