"""What a calendar event says about its course: the name, the room, the teacher, and the rest as a note.

Timetable exporters put the same facts in different places: the room after the name ("课程 - 教室",
"课程@教室", "Math ROOM: 1.315"), the sections in the name ("课程|第 1、2 节"), the teacher and the
course code in the description ("任课教师：X。", "课程名称：…;上课地点：…;教师：…", "工号/姓名/职称",
"由X老师任教"). ``course_facts`` reads them into one record. Nothing is thrown away: description
text that is not understood becomes the note, and punctuation around a value is trimmed.

Two conventions carry most of the reading: a keyed line's key decides its field by the words in it
(whatever the exporter called the teacher or the room), and a SUMMARY split by a spaced separator
("课程 - 第1-16周 - 教室", "课程 / 教室 / 教师", "课程 教师 @教室") has the course first, with each other
part filed by what it looks like -- week text dropped, people's names the teacher, the rest the room.
Teachers' titles are dropped and several teachers joined with 、 (``people.teacher_names``).
"""

from __future__ import annotations

import html
import re
import unicodedata
from dataclasses import dataclass

from schedule.core.importers.people import (
    TITLE_WORDS,
    TWO_CHARACTER_SURNAMES,
    looks_like_han_name,
    looks_like_people,
    teacher_names,
)

MAX_FIELD = 100
MAX_NOTE = 500

# Which sections or weeks, after the name: "课程|第 1、2 节", "课程 第1-2节", "课程(1-2节)", "课程 1-16周(单)".
_SECTIONS_SUFFIX = re.compile(r"(?:\s*[|｜]\s*|\s+)第?\s*[\d、,，\s-]+[节節]\s*$"
                              r"|\s*[(（\[【]\s*第?\s*[\d、,，\s-]+[节節]\s*[)）\]】]$"
                              r"|\s+第?\s*\d+(?:\s*[-~–,，、]\s*\d+)*\s*[周週](?:\s*[(（]?[单双單雙][周週]?[)）]?)?\s*$")
_CLOCK_RANGE = re.compile(r"\s*\d{1,2}:\d{2}\s*(?:[AP]M)?\s*[-–~]\s*\d{1,2}:\d{2}\s*(?:[AP]M)?", re.I)
_ROOM_LABEL = re.compile(r"\s+ROOM\s*[:：]\s*", re.I)
_AT_ROOM = re.compile(r"^(?P<name>[^@]+?)\s*@\s*(?P<rest>[^@]+)$")
# Parts of a SUMMARY joined by a spaced dash or slash ("课程 - 第1-16周 - 教室", "课程 / 教室 / 教师"); an
# unspaced one belongs to a word ("TCP/IP", "教三-201").
_PART_SEPARATOR = re.compile(r"\s+[-–—/]\s+")
# A part that only says which weeks ("第1-16周", "第1-15周(单)", "1-8周"): the board has the weeks already.
_WEEK_TEXT = re.compile(r"^第?\s*\d+(?:\s*[-~–,，、]\s*\d+)*\s*周")
# A course code in brackets before the name ("[CHN2103]中国现当代文学", "【TRA2101】交通工程学").
_CODE_PREFIX = re.compile(r"^[\[【(（]\s*(?P<code>[A-Za-z]{2,6}\d{3,6}[A-Za-z]?)\s*[\]】)）]\s*(?=\S)")
# Words that mark a place: a building, a room number, online.
_PLACE_HINT = re.compile(r"\d|楼|樓|教|室|馆|館|中心|实验|机房|场|實訓|实训|基地|线上|网络|在线|room|hall|lab|online", re.I)
_WEEK_PREFIX = re.compile(r"^[单双]?周\s+")  # "周 麦工商楼G103": a converter's leftover of "单周"
_TEACHER_HINT = re.compile(r"老师|教师|老師|教師|教授|讲师|講師")

_TEACHER_KEYS = ("任课教师", "授课教师", "授课老师", "任课老师", "教师姓名", "主讲教师", "主讲", "授课", "教师", "老师", "教员",
                 "担当", "teachers", "teacher", "instructors", "instructor", "lecturers", "lecturer", "staff")
_PLACE_KEYS = ("上课地点", "上课教室", "地点", "教室", "location", "room")
_CODE_KEYS = ("课程号", "课程代码", "课程编号", "课程编码", "course code", "code")
_NAME_KEYS = ("课程名称", "课程名", "course")
# A keyed line's key decides its field by the words in it, however the exporter worded it: "授课老师",
# "教师姓名", "Instructors" are the teacher, "上课地点", "授课教室", "Location" the place. The course code
# is tried first ("课程编号"), then a key naming something *about* a person or place ("教师工号",
# "授课方式", "教室类型") is no field at all, then the place before the teacher ("授课地点" is a place).
_KEY_FIELDS = (
    ("code", re.compile(r"课程号|课程代码|课程编号|课程编码|^代码$|\bcode\b", re.I)),
    ("", re.compile(r"编号|工号|电话|邮箱|职称|方式|类型|性质|时间|学时|学分|容量|email|phone|type|time|\bid\b",
                    re.I)),
    ("place", re.compile(r"地点|教室|场地|location|room|venue|place|강의실|장소", re.I)),
    ("teacher", re.compile(r"教师|老师|教员|主讲|讲师|担当|^授课人?$|^任课人?$|teacher|instructor|lecturer|tutor|staff"
                           r"|professor|\bprof\b|faculty|taught by|vortragende|dozent|lehrende|enseignant|docente"
                           r"|교수|강사|담당",
                           re.I)),
    ("name", re.compile(r"课程名|^course$|^module$|^subject$", re.I)),
)
_ALL_KEYS = sorted((*_TEACHER_KEYS, *_PLACE_KEYS, *_CODE_KEYS, *_NAME_KEYS), key=len, reverse=True)
# Keyed facts on one line ("任课教师：X 课程号：C", "Instructor: X, Room: R"): a new part starts at a known
# key, or a Chinese one ("学分: 3"), after a space or a comma.
_KEY_STARTS = re.compile(r"(?:(?<=\s)|[,，、]\s*)(?=(?:" + "|".join(map(re.escape, _ALL_KEYS))
                         + r"|[\u4e00-\u9fff]{1,6})\s*[:：])", re.I)
# The traditional forms of the characters description keys are made of, for reading them as the simplified.
_SIMPLIFIED = str.maketrans("師講課點編號碼稱時間週節樓館實驗機學類職電話郵員項務堂",
                            "师讲课点编号码称时间周节楼馆实验机学类职电话邮员项务堂")
_KEYED = re.compile(r"^\s*(?P<key>[^:：]{1,16}?)\s*[:：]\s*(?P<value>.*?)\s*$")
_PARTS = re.compile(r"[;；|｜]+|\s+[·•]\s+")  # "授课教师：冉静 | 第1-2节 | 第1周", "刘佳 · 1-16周"
# A teacher named right after the word for one, with no colon ("必修课 任课老师彭远", "主讲教师 王宁").
_WORDED_TEACHER = re.compile(r"(?:^|\s)(?:任课|授课|主讲|上课)(?:教师|老师)\s*(?P<names>[\u4e00-\u9fff·]{2,5}"
                             r"(?:[、,，\s]+[\u4e00-\u9fff·]{2,5})*)\s*$")
_TAUGHT_BY = re.compile(r"由\s*(?P<teacher>.+?)\s*(?:老师)?任教")
_BARE_HAN_NAME = re.compile(r"[\u4e00-\u9fff]{2,4}")
# When a class meets, written after the teacher's names on the same line ("冯建军 第1周 1-2节").
_WHEN_AFTER_NAMES = re.compile(r"\s+(?:第\s*\d|\d{1,2}\s*[-~～,，、]\s*\d{1,2}\s*[周节節週]|\d{1,2}\s*[周节節週]|周次|星期).*$")
# A teacher's word, a space and the names, without a colon ("老师 郑婷婷", "教师 Laura Chen"): read as
# the keyed line it means.
_SPACED_KEY = re.compile(r"^(?P<key>教师|老师|教員|教员|老師|教師)\s+(?P<value>\S.*)$")
# A remark in brackets after a teacher that is no title ("邵国平（调休补课）").
_REMARK_AFTER = re.compile(r"\s*[(（](?P<remark>[^()（）]+)[)）]$")
# A teacher and the word for one opening a part: the whole part ("顾明远老师", "叶萍 教授"), or the start
# of what a student wrote ("陈国庆老师的课，带计算器"), whose rest stays in the note.
_NAME_THEN_TITLE = re.compile(rf"^(?P<name>[\u4e00-\u9fff·]{{2,4}}?)\s*(?:{TITLE_WORDS})(?=的|[\s,，。]|$)")
_STAFF_ENTRY = re.compile(r"^\s*\w*\d\w*\s*/\s*(?P<name>[^/]+?)\s*/\s*[^/]*$")  # 工号/姓名/职称
# French systems (ADE) write each teacher on a line of their own, family name in capitals first
# ("DUPONT Claire", "LE GALL Anne-Marie"); "TD Groupe" is a kind of class, not a person.
_FAMILY_NAME_FIRST = re.compile(
    r"^(?P<family>[A-Z][A-Z'-]+(?:\s+[A-Z][A-Z'-]+)*)\s+[A-Z][a-zà-öø-ÿ'-]+(?:[\s-][A-Z][a-zà-öø-ÿ'-]+)*$")
_CLASS_KINDS = frozenset({"CM", "TD", "TP", "DS", "CC", "TPE", "EXAM"})
# A timetable system's stamp of when the file was made ("(Exporté le:28/08/2027 12:15)"): not about the class.
_EXPORT_STAMP = re.compile(r"^\(?\s*(?:export(?:é|ed)\s+(?:le|on)|导出时间)\s*[:：].*$", re.IGNORECASE)
_TITLED_NAME = re.compile(r"(?P<name>[^()（）]{1,30}?)\s*[(（](?P<title>.*)[)）]")
_TITLE_WORDS = re.compile(rf"{TITLE_WORDS}|教师", re.I)  # what a bracket after a name may say: "教师B(副教授)"
# A course code, then the course's title ("COMP2119 Introduction to Data Structures", "LAW3001 经济法").
# A dash may part them ("COMPSCI 201 - Data Structures and Algorithms").
_LEADING_CODE = re.compile(r"^(?P<code>[A-Z]{2,8}\s?\d{3,5}[A-Z]?)\s+(?:[-–:|]\s+)?"
                           r"(?P<rest>(?=\S*[\u4e00-\u9fff]|\S+\s+\S).+)$")
# Kinds of session a timetable names beside a course ("COMP2311 Lab", "Calculus 2 - Lecture 1").
_SESSIONS = r"lecture|lab|laboratory|tutorial|seminar|workshop|practical|recitation|studio|exam|test|quiz|midterm"
_SESSION_KIND = re.compile(rf"^(?:{_SESSIONS}|section|class|discussion)\b(?:\s+[A-Z]?\d*[A-Z]?)?(?:\s+-\s+.*)?$", re.I)
_KIND_PREFIX = re.compile(r"^[【\[(（]\s*(?P<kind>(?:公共|专业|学科)?(?:必修|选修)|限选|任选|公选|限修|通识|辅修|重修|实践|实验"
                          r"|理论)\s*[】\])）]\s*(?=\S)")
# A session in brackets after the name, as timetabling portals mark every event ("微積分I (講課)",
# "Linear Algebra (Lecture)"). A lab or practical is a session only after a course code: "C语言(实验)"
# alone is the course's own name.
_BRACKET_SESSION = re.compile(r"\s*[(（](?P<session>讲课|講課|讲授|講授|导修|導修|辅导|輔導|习题课|習題課|研讨|研討|讨论课|討論課"
                              r"|lecture|tutorial|seminar|recitation|discussion|workshop)[)）]$", re.I)
_BRACKET_LAB = re.compile(r"\s*[(（](?P<session>实验|實驗|上机|上機|实践|實踐|lab|laboratory|practical)[)）]$", re.I)
_WRAPPED = re.compile(r"[【\[](?P<inner>[^【】\[\]]+)[】\]]")
# A teaching class's number after the name ("数值分析（01班）"): which class, not what course.
_CLASS_NUMBER = re.compile(r"\s*[(（\[【](?P<group>(?:教学班|教學班)?\s*[A-Za-z]?\d{1,3}\s*班)[)）\]】]$")
_SESSION_SUFFIX = re.compile(rf"\s+[-–]\s+(?P<session>(?:{_SESSIONS})\b[^-–]*)$", re.I)
# A room in brackets after the name ("数值分析（理科楼A305）", "工程制图 [实训中心305]"); brackets that are
# part of the name ("大学英语(二)", "线性代数（上）", "C语言(实验)") hold no building word or room number.
# A room in brackets before the name ("[博文楼201]大学英语"); a course code there is read by _CODE_PREFIX.
_ROOM_FIRST = re.compile(r"^[\[【(（](?P<room>[^()（）\[\]【】]+)[\]】)）]\s*(?P<name>\S.*)$")
# A teacher in brackets after the name ("高等数学【张三】", "数据结构(李四)").
_BRACKET_PERSON = re.compile(r"^(?P<name>.+?)\s*(?:【(?P<square>[^【】]+)】|\[(?P<bracket>[^\[\]]+)\]"
                             r"|[(（](?P<round>[^()（）]+)[)）])$")
_BRACKET_ROOM = re.compile(r"^(?P<name>.+?)\s*[(（\[【](?P<room>[^()（）\[\]【】]+)[)）\]】]$")
_ROOM_WORDS = re.compile(r"楼|樓|室|馆|館|中心|机房|场|实训|實訓|基地|[A-Za-z]\d{2,}|\d{3,}|\b(?:room|hall|lab)\b", re.I)
_CODE_AND_NAME = re.compile(r"(?P<code>[A-Z]{2,5}\d{3,6}[A-Z]?)\s+\S.{0,60}")
_CODE_LIKE = re.compile(r"^[A-Z]{2,5}\d{3,6}(?:[.\-]\d{1,3})?[A-Z]?$")
_ROOM_NUMBER = re.compile(r"[A-Za-z]?\d{2,}")  # "C305", "101", "2-301": a room, not only a building
# Words of a course's variant, not of a person ("大学英语(全英文)", "物理(双语)", "数学(重修)").
_COURSE_WORDS = re.compile(r"英文|英语|双语|中文|实验|上机|理论|实践|讨论|研讨|习题|基础|提高|强化|荣誉|线上|网课"
                           r"|重修|辅修|选修|必修|慕课|班")
_LATIN_NAME_ONLY = re.compile(r"^(?:Dr\.?|Prof\.?)\s+[A-Z][a-z]+(?:\s+[A-Z][a-z]+)*$")
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
    titled, kind = _without_kind(_unwrapped(_clean(summary)))
    titled, code = split_course_code(titled)
    titled, session = _without_session(titled, coded=bool(code))
    kind = "；".join(filter(None, (kind, session)))
    name, room_in_name, teacher_in_name = _split_name(titled, has_location=bool(_clean(location)))
    keyed, rest = _read_description(description)
    rest = [kind, *rest] if kind else rest
    teacher = teacher_names(teacher_in_name) or keyed.get("teacher", "")
    place, place_note = _place(location, room_in_name)
    place = place or keyed.get("place", "")
    code = keyed.get("code") or code
    note_parts = [f"课程号：{code}" if code else "", place_note, *rest]
    note = "；".join(dict.fromkeys(part for part in note_parts if part and part not in {name, place, teacher}))
    return CourseFacts(
        name=(name or _clean(summary))[:MAX_FIELD],
        location=place[:MAX_FIELD],
        teacher=teacher[:MAX_FIELD],
        note=note[:MAX_NOTE],
    )


def _place(location: str, room_in_name: str) -> tuple[str, str]:
    """The room a student goes to, from LOCATION and the name; what else they say goes to the note.

    A generator may put the room in the name and the building with its street address in LOCATION
    ("课程 - 明理楼C305" at "某某大学明理楼C区\\n大学路88号"): the room is the name's, and LOCATION is
    kept in the note. Otherwise LOCATION is the room, its first line when it has several.
    """
    lines = [_clean(line) for line in (location or "").splitlines()]
    lines = [line for line in lines if line]
    written = _WEEK_PREFIX.sub("", lines[0]) if lines else ""
    address = " ".join(lines[1:])
    if written and _CODE_LIKE.match(room_in_name):  # "体育(4)(PE1004.21)": the class's code, not a room
        return written, f"课程号：{room_in_name}"
    if not written or not room_in_name or room_in_name in written:
        return written or room_in_name, f"地址：{address}" if address else ""
    if _ROOM_NUMBER.search(written):
        return written, "；".join(filter(None, (f"地址：{address}" if address else "", room_in_name)))
    return room_in_name, f"地点：{' '.join(lines)}"


def _without_kind(summary: str) -> tuple[str, str]:
    """The name without a course-kind tag before it ("【必修】刑法学") or a session after it
    ("Calculus 2 - Lecture 1"), and that tag or session for the note."""
    tagged = _KIND_PREFIX.match(summary)
    if tagged:
        return summary[tagged.end():], f"课程性质：{tagged['kind']}"
    session = _SESSION_SUFFIX.search(summary)
    if session:
        return summary[:session.start()], session["session"]
    return summary, ""


def _unwrapped(summary: str) -> str:
    """A name a mini-program wrote whole in brackets ("【机械基础】") without them."""
    wrapped = _WRAPPED.fullmatch(summary)
    return wrapped["inner"].strip() if wrapped else summary


def _without_session(name: str, *, coded: bool) -> tuple[str, str]:
    """The name without a bracketed session or class number after it, and those for the note."""
    said: list[str] = []
    for pattern in (_CLASS_NUMBER, _BRACKET_SESSION, *((_BRACKET_LAB,) if coded else ())):
        match = pattern.search(name)
        if match and match.start() > 0:
            name = name[:match.start()]
            said.append(f"教学班：{match['group']}" if pattern is _CLASS_NUMBER else match["session"])
    return name, "；".join(said)


def split_course_code(name: str) -> tuple[str, str]:
    """Return (name, code) of a name written after its course code ("[CHN2103]文学", "COMP2119 Data Structures").

    A code before a kind of session alone ("COMP2311 Lab", "MATH2040 Lecture") is the course's name.
    """
    match = _CODE_PREFIX.match(name)
    if match:
        return name[match.end():], match["code"]
    leading = _LEADING_CODE.match(name)
    if leading and not _SESSION_KIND.match(leading["rest"]):
        return leading["rest"], leading["code"]
    return name, ""


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
    at_room = _AT_ROOM.match(text)
    if at_room:
        name, teacher = _name_and_people(_clean(at_room["name"]))
        return name, _clean(at_room["rest"]), teacher
    parts = [_clean(part) for part in _PART_SEPARATOR.split(text)]
    parts = [parts[0], *(part for part in parts[1:] if part and not _WEEK_TEXT.match(part))]
    if len(parts) == 2:
        if _looks_like_teacher(parts[1], has_location=has_location):
            return parts[0], "", parts[1]
        return parts[0], parts[1], ""
    if len(parts) > 2:
        return _filed_parts(parts)
    bracketed = _BRACKET_ROOM.match(text)
    if bracketed and _ROOM_WORDS.search(bracketed["room"]) and not _TEACHER_HINT.search(bracketed["room"]):
        return _clean(bracketed["name"]), _clean(bracketed["room"]), ""
    return _bracketed_or_spaced(_clean(text))


def _bracketed_or_spaced(text: str) -> tuple[str, str, str]:
    """(name, room, teacher) of "[教室]课程", "课程【教师】" or "课程 教师 教室"; the name alone otherwise."""
    room_first = _ROOM_FIRST.match(text)
    if room_first and _ROOM_WORDS.search(room_first["room"]) and not _TEACHER_HINT.search(room_first["room"]):
        return _clean(room_first["name"]), _clean(room_first["room"]), ""
    person = _BRACKET_PERSON.match(text)
    who = person and (person["square"] or person["bracket"] or person["round"])
    if person and who and _names_a_teacher(who, square=not person["round"]):
        return _clean(person["name"]), "", teacher_names(who)
    words = text.split(" ")
    if len(words) > 1 and _ROOM_NUMBER.search(words[-1]) and looks_like_place(words[-1]) \
            and re.search(r"[\u4e00-\u9fff]", words[0]):
        name, teacher = _name_and_people(" ".join(words[:-1]))
        return name, words[-1], teacher
    return text, "", ""


def _names_a_teacher(written: str, *, square: bool) -> bool:
    # Square brackets after a name hold people; round ones also hold parts of names ("C语言(实验)").
    if square:
        return looks_like_people(written)
    if _COURSE_WORDS.search(written):
        return False
    return all(looks_like_han_name(part) or _LATIN_NAME_ONLY.match(part) for part in re.split(r"[,，、/]", written))


def _filed_parts(parts: list[str]) -> tuple[str, str, str]:
    """(name, room, teacher) of "课程 / 教室 / 教师" in any order after the name: each part by its look."""
    places = [part for part in parts[1:] if looks_like_place(part) or not looks_like_people(part)]
    people = [part for part in parts[1:] if part not in places]
    return parts[0], " ".join(places), "、".join(people)


def _name_and_people(head: str) -> tuple[str, str]:
    """Split "课程 教师" (before an "@教室") into the course and the teacher(s) after it.

    The teacher is the shortest run of trailing words that reads as people's names; a head with no Han
    character ("C++ Primer") is a name alone, since its last words cannot be told from a person's.
    """
    words = head.split(" ")
    if len(words) < 2 or not re.search(r"[\u4e00-\u9fff]", words[0]):
        return head, ""
    for cut in range(len(words) - 1, 0, -1):
        tail = " ".join(words[cut:])
        if not looks_like_people(tail):
            continue
        longer = " ".join(words[cut - 1:])
        if cut > 1 and looks_like_people(longer) and not re.search(r"[\u4e00-\u9fff]", longer):
            continue  # "Mark Allen": a Latin name runs over several words
        return " ".join(words[:cut]), teacher_names(tail)
    return head, ""


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
    for line in text.split("\n"):
        rest.extend(_read_line(line, keyed))
    return keyed, rest


def _read_line(line: str, keyed: dict[str, str]) -> list[str]:
    """File the parts of one description line; return those not understood."""
    rest: list[str] = []
    after_teacher = False
    for part in (p.strip() for piece in _PARTS.split(line) for p in _KEY_STARTS.split(piece)):
        if not part:
            continue
        if after_teacher and not _KEYED.match(part) and looks_like_people(part):
            _add_teacher(keyed, part)  # "任课教师：方宇；刘畅": the list of teachers goes on, on its line
            continue
        before = keyed.get("teacher")
        part = _take_worded_teacher(part, keyed)
        if part and not _read_part(part, keyed):
            rest.append(_clean(part))
        after_teacher = keyed.get("teacher") != before
    return rest


def _take_worded_teacher(part: str, keyed: dict[str, str]) -> str:
    """File a teacher written after its word without a colon; return what is left of ``part``."""
    if _KEYED.match(part) or _TAUGHT_BY.search(part):
        return part
    worded = _WORDED_TEACHER.search(part)
    if not worded or not looks_like_people(worded["names"]):
        return part
    _add_teacher(keyed, worded["names"])
    return part[:worded.start()].strip()


def _read_part(part: str, keyed: dict[str, str]) -> bool:
    """File one description part under teacher / place / code / name; False if it means nothing known."""
    if _EXPORT_STAMP.match(part):
        return True  # dropped: when the file was made says nothing about the class
    match = _KEYED.match(part)
    if match:
        return _read_keyed(match["key"].lower(), _clean(match["value"]), keyed)
    taught = _TAUGHT_BY.search(part)
    if taught:
        keyed.setdefault("teacher", _clean(taught["teacher"]))
        return True
    addressed = _NAME_THEN_TITLE.match(part)
    whole = addressed is not None and addressed.end() == len(part)
    if addressed and looks_like_han_name(addressed["name"]) and (whole or "teacher" not in keyed):
        _add_teacher(keyed, addressed["name"])
        return whole  # what follows the teacher ("的课，带计算器") stays in the note
    spaced = _SPACED_KEY.fullmatch(part)
    if spaced and _names_only(_without_remark(spaced["value"])):
        return _read_keyed(spaced["key"], spaced["value"], keyed)
    who = _WHEN_AFTER_NAMES.sub("", part)  # "杨帆 1-16周", "Lisa Chen 2-16周双": a phone app's teacher and weeks
    if "teacher" not in keyed and (_is_bare_name(who) or (who != part and _names_only(who))):
        _add_teacher(keyed, who)  # "张三 | 1-16周": a phone app writes the teacher alone
        return True
    family_first = _FAMILY_NAME_FIRST.match(part)
    if family_first and not _CLASS_KINDS.intersection(family_first["family"].split()):
        _add_teacher(keyed, part)
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
    if titled and (not titled["title"].strip() or _TITLE_WORDS.search(titled["title"])) \
            and looks_like_people(titled["name"]):
        _add_teacher(keyed, _clean(titled["name"]))
        return True
    return False


def _is_bare_name(part: str) -> bool:
    """Whether a description part is nothing but Chinese names ("张伟", "宋晓梅、冯军")."""
    return all(_bare_name(name.strip()) for name in re.split(r"[、,，/]", part))


def _names_only(text: str) -> bool:
    """Chinese names, listed with spaces too, or one person's Latin name ("Laura Chen")."""
    return all(map(_is_bare_name, text.split())) or (text.isascii() and looks_like_people(text))


def _without_remark(value: str) -> str:
    remark = _REMARK_AFTER.search(value)
    return value[:remark.start()] if remark and remark.start() > 0 else value


def _bare_name(name: str) -> bool:
    # Four characters are a name only after a two-character family name (佐藤美咲), not 高等数学.
    return bool(_BARE_HAN_NAME.fullmatch(name)) and looks_like_han_name(name) \
        and (len(name) < 4 or name[:2] in TWO_CHARACTER_SURNAMES)


def _read_keyed(key: str, value: str, keyed: dict[str, str]) -> bool:
    key = key.translate(_SIMPLIFIED)  # "授課教師" (Taiwan, Hong Kong) is "授课教师"
    field = next((field for field, words in _KEY_FIELDS if words.search(key)), "")
    if field == "teacher":
        value = _WHEN_AFTER_NAMES.sub("", value)  # "冯建军 第1周 1-2节": when, not who
        remark = _REMARK_AFTER.search(value)
        if remark and remark.start() > 0 and not _TITLE_WORDS.search(remark["remark"]):
            _add_teacher(keyed, _without_remark(value))  # "邵国平（调休补课）": the remark stays in the note
            return False
    if field == "teacher" and value:
        _add_teacher(keyed, value)
    elif field in ("place", "code") and value:
        keyed.setdefault(field, value)
    return bool(field)  # a course name again says nothing new; other keys go to the note


def _add_teacher(keyed: dict[str, str], name: str) -> None:
    names = teacher_names("、".join(filter(None, (keyed.get("teacher", ""), name))))
    if names:
        keyed["teacher"] = names
