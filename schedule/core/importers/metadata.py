"""What a calendar event says about its course: the name, the room, the teacher, and the rest as a note.

Timetable exporters put the same facts in different places: the room after the name ("课程 - 教室",
"课程@教室", "Math ROOM: 1.315"), the sections in the name ("课程|第 1、2 节"), the teacher and the
course code in the description ("任课教师：X。", "课程名称：…;上课地点：…;教师：…", "工号/姓名/职称",
"由X老师任教"). ``course_facts`` reads them into one record. Nothing is thrown away: description
text that is not understood becomes the note, and punctuation around a value is trimmed.
"""

from __future__ import annotations

import html
import re
import unicodedata
from dataclasses import dataclass

MAX_FIELD = 100
MAX_NOTE = 500

_SECTIONS_SUFFIX = re.compile(r"\s*[|｜]\s*第?\s*[\d、,，\s-]+节\s*$")
_CLOCK_RANGE = re.compile(r"\s*\d{1,2}:\d{2}\s*(?:[AP]M)?\s*[-–~]\s*\d{1,2}:\d{2}\s*(?:[AP]M)?", re.I)
_ROOM_LABEL = re.compile(r"\s+ROOM\s*[:：]\s*", re.I)
_AT_ROOM = re.compile(r"^(?P<name>[^@]+?)\s*@\s*(?P<rest>[^@]+)$")
_DASH_SUFFIX = re.compile(r"^(?P<name>.+?)\s+[-–—]\s+(?P<rest>.+)$")
# Words that mark a place: a building, a room number, online.
_PLACE_HINT = re.compile(r"\d|楼|教|室|馆|中心|实验|机房|操场|线上|网络|在线|room|hall|lab|online", re.I)
_WEEK_PREFIX = re.compile(r"^[单双]?周\s+")  # "周 麦工商楼G103": a converter's leftover of "单周"
_TEACHER_HINT = re.compile(r"老师|教师|教授|讲师")

_TEACHER_KEYS = ("任课教师", "授课教师", "教师姓名", "主讲教师", "主讲", "授课", "教师", "老师", "teacher",
                 "instructor", "lecturer")
_PLACE_KEYS = ("上课地点", "上课教室", "地点", "教室", "location", "room")
_CODE_KEYS = ("课程号", "课程代码", "课程编号", "课程编码", "course code", "code")
_NAME_KEYS = ("课程名称", "课程名", "course")
_ALL_KEYS = sorted((*_TEACHER_KEYS, *_PLACE_KEYS, *_CODE_KEYS, *_NAME_KEYS), key=len, reverse=True)
# Keyed facts on one line ("任课教师：X 课程号：C", "Instructor: X, Room: R"): a new part starts at a known
# key, or a Chinese one ("学分: 3"), after a space or a comma.
_KEY_STARTS = re.compile(r"(?:(?<=\s)|[,，、]\s*)(?=(?:" + "|".join(map(re.escape, _ALL_KEYS))
                         + r"|[\u4e00-\u9fff]{1,6})\s*[:：])", re.I)
_KEYED = re.compile(r"^\s*(?P<key>[^:：]{1,12}?)\s*[:：]\s*(?P<value>.*?)\s*$")
_PARTS = re.compile(r"[;；\n]+")
_TAUGHT_BY = re.compile(r"由\s*(?P<teacher>.+?)\s*(?:老师)?任教")
_STAFF_ENTRY = re.compile(r"^\s*\w*\d\w*\s*/\s*(?P<name>[^/]+?)\s*/\s*[^/]*$")  # 工号/姓名/职称
_TITLED_NAME = re.compile(r"(?P<name>[^()（）\s]{1,20})\s*[(（](?P<title>.*)[)）]")
_TITLE_WORDS = re.compile(r"教授|讲师|助教|教师|研究员|工程师|实验师|professor|lecturer", re.I)
# A room in brackets after the name ("数值分析（理科楼A305）", "工程制图 [实训中心305]"); brackets that are
# part of the name ("大学英语(二)", "线性代数（上）", "C语言(实验)") hold no building word or room number.
_BRACKET_ROOM = re.compile(r"^(?P<name>.+?)\s*[(（\[【](?P<room>[^()（）\[\]【】]+)[)）\]】]$")
_ROOM_WORDS = re.compile(r"楼|室|馆|中心|机房|操场|[A-Za-z]\d{2,}|\d{3,}|\b(?:room|hall|lab)\b", re.I)
_CODE_AND_NAME = re.compile(r"(?P<code>[A-Z]{2,5}\d{3,6}[A-Z]?)\s+\S.{0,60}")
_HTML_TAG = re.compile(r"<[^>]{0,200}>")
_TRIM = " \t\"'“”‘’。.,，;；、:："
_PAIRS = {"(": ")", "（": "）", "[": "]", "【": "】"}


@dataclass(frozen=True, slots=True)
class CourseFacts:
    """The course as one calendar event describes it."""

    name: str
    location: str = ""
    teacher: str = ""
    note: str = ""


def course_facts(summary: str, location: str = "", description: str = "") -> CourseFacts:
    """Read the name, room, teacher and note out of an event's SUMMARY, LOCATION and DESCRIPTION."""
    name, room_in_name, teacher_in_name = _split_name(_clean(summary), has_location=bool(_clean(location)))
    keyed, rest = _read_description(description)
    teacher = teacher_in_name or keyed.get("teacher", "")
    place = _WEEK_PREFIX.sub("", _clean(location)) or room_in_name or keyed.get("place", "")
    note_parts = [f"课程号：{keyed['code']}" if keyed.get("code") else "", *rest]
    note = "；".join(part for part in note_parts if part and part not in {name, place, teacher})
    return CourseFacts(
        name=(name or _clean(summary))[:MAX_FIELD],
        location=place[:MAX_FIELD],
        teacher=teacher[:MAX_FIELD],
        note=note[:MAX_NOTE],
    )


def looks_like_place(text: str) -> bool:
    """Whether a bare value reads as a place (a room number, a building, online) rather than a person."""
    return bool(_PLACE_HINT.search(text)) and not _TEACHER_HINT.search(text)


def _clean(text: str) -> str:
    return _balanced(" ".join(unicodedata.normalize("NFC", text or "").split()).strip(_TRIM))


def _balanced(text: str) -> str:
    """Drop a bracket left without its partner at either end ("教师A)" -> "教师A"), keep "数学(2-2)"."""
    for opening, closing in _PAIRS.items():
        if text.endswith(closing) and text.count(opening) < text.count(closing):
            text = text[:-1].strip(_TRIM)
        if text.startswith(opening) and text.count(opening) > text.count(closing):
            text = text[1:].strip(_TRIM)
    return text


def _split_name(summary: str, *, has_location: bool) -> tuple[str, str, str]:
    """Return (name, room, teacher) from a SUMMARY that may carry a room, a teacher or sections."""
    text = _SECTIONS_SUFFIX.sub("", summary)
    text = _CLOCK_RANGE.sub("", text)
    labelled = _ROOM_LABEL.split(text, maxsplit=1)
    if len(labelled) == 2:
        return _clean(labelled[0]), _clean(labelled[1]), ""
    for pattern in (_AT_ROOM, _DASH_SUFFIX):
        match = pattern.match(text)
        if match:
            name, rest = _clean(match["name"]), _clean(match["rest"])
            if _looks_like_teacher(rest, has_location=has_location):
                return name, "", rest
            return name, rest, ""
    bracketed = _BRACKET_ROOM.match(text)
    if bracketed and _ROOM_WORDS.search(bracketed["room"]) and not _TEACHER_HINT.search(bracketed["room"]):
        return _clean(bracketed["name"]), _clean(bracketed["room"]), ""
    return _clean(text), "", ""


def _looks_like_teacher(text: str, *, has_location: bool) -> bool:
    # "课程 - 教师E" where LOCATION holds the room; "课程 - 信南B235" where it does not.
    if _TEACHER_HINT.search(text):
        return True
    return has_location and not _PLACE_HINT.search(text)


def _read_description(description: str) -> tuple[dict[str, str], list[str]]:
    """Return the keyed facts of a description (teacher, place, code) and the parts not understood."""
    keyed: dict[str, str] = {}
    rest: list[str] = []
    text = description.replace("\\n", "\n").replace("\\,", ",").replace("\\;", ";")
    text = html.unescape(_HTML_TAG.sub("\n", text))  # Google Calendar writes descriptions as HTML
    for part in (p.strip() for line in _PARTS.split(text) for p in _KEY_STARTS.split(line)):
        if part and not _read_part(part, keyed):
            rest.append(_clean(part))
    return keyed, rest


def _read_part(part: str, keyed: dict[str, str]) -> bool:
    """File one description part under teacher / place / code / name; False if it means nothing known."""
    match = _KEYED.match(part)
    if match:
        return _read_keyed(match["key"].lower(), _clean(match["value"]), keyed)
    taught = _TAUGHT_BY.search(part)
    if taught:
        keyed.setdefault("teacher", _clean(taught["teacher"]))
        return True
    staff = _STAFF_ENTRY.match(part)
    if staff:
        _add_teacher(keyed, _clean(staff["name"]))
        return True
    coded = _CODE_AND_NAME.fullmatch(part)  # "LAW3001 经济法": a course code before the name
    if coded:
        keyed.setdefault("code", coded["code"])
        return True
    titled = _TITLED_NAME.fullmatch(part)  # "教师C()", "教师B(副教授)": a name and a title
    if titled and (not titled["title"].strip() or _TITLE_WORDS.search(titled["title"])):
        _add_teacher(keyed, _clean(titled["name"]))
        return True
    return False


def _read_keyed(key: str, value: str, keyed: dict[str, str]) -> bool:
    for field, keys in (("teacher", _TEACHER_KEYS), ("place", _PLACE_KEYS), ("code", _CODE_KEYS)):
        if key in keys:
            if value:
                if field == "teacher":
                    _add_teacher(keyed, value)
                else:
                    keyed.setdefault(field, value)
            return True
    return key in _NAME_KEYS  # the course's own name again: nothing to keep


def _add_teacher(keyed: dict[str, str], name: str) -> None:
    titled = _TITLED_NAME.fullmatch(name)  # "蓝天野（副教授）": the name without the title
    if titled and _TITLE_WORDS.search(titled["title"]):
        name = titled["name"]
    if not name:
        return
    names = [n for n in keyed.get("teacher", "").split("、") if n]
    for one in re.split(r"[,，、/]+", name):
        if one.strip(_TRIM) and one.strip(_TRIM) not in names:
            names.append(one.strip(_TRIM))
    keyed["teacher"] = "、".join(names)
