"""The pure pieces behind reading any school's file: repairing the text, reading what an event says of its
course, inferring the section grid and the semester, and expanding rules without walking from year 1."""

from __future__ import annotations

from datetime import date, time, timedelta
from zoneinfo import ZoneInfo

import pytest

from schedule.core.importers import parse_timetable
from schedule.core.importers.budget import WorkBudget
from schedule.core.importers.frame import DatedEvent, infer_grid, infer_grid_switch, infer_semester
from schedule.core.importers.ics import expand_events, read_ics
from schedule.core.importers.ics_text import repair_ics
from schedule.core.importers.metadata import course_facts
from schedule.core.importers.people import teacher_names
from schedule.core.time_model import SectionTemplate, Semester

DEFAULT = SectionTemplate.default_cqupt()
SEMESTER = Semester(date(2026, 9, 7), 20)


def t(text: str) -> time:
    return time(int(text[:2]), int(text[3:]))


def spans(*pairs: tuple[str, str, int]) -> dict[tuple[time, time], int]:
    return {(t(a), t(b)): n for a, b, n in pairs}


# --- Repairs --------------------------------------------------------------------------------------

def test_a_file_cut_off_before_its_end_is_closed_and_said_so():
    repaired = repair_ics("BEGIN:VCALENDAR\nBEGIN:VEVENT\nSUMMARY:x\n")
    assert repaired.text.endswith("END:VEVENT\r\nEND:VCALENDAR\r\n")
    assert [r.code for r in repaired.repairs] == ["missing_end"]
    assert repaired.event_lines == (2,)


def test_stray_carriage_returns_and_non_property_lines_are_read_past():
    repaired = repair_ics("BEGIN:VCALENDAR\r\r\nBEGIN:VEVENT\r\r\nSUMMARY:x\r\r\n这不是属性\r\r\nEND:VEVENT\r\r\n"
                          "END:VCALENDAR\r\r\n")
    codes = {r.code: r.lines for r in repaired.repairs}
    assert set(codes) == {"line_endings", "unreadable_lines"}
    assert codes["unreadable_lines"] == (4,)
    assert "这不是属性" not in repaired.text


def test_a_space_before_a_fold_belongs_to_the_value():
    repaired = repair_ics("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nSUMMARY:Cohort Classroom 12 \r\n (2.310)\r\n"
                          "END:VEVENT\r\nEND:VCALENDAR\r\n")
    assert "SUMMARY:Cohort Classroom 12 (2.310)\r\n" in repaired.text


def test_a_property_with_parameters_and_no_value_is_dropped_quietly():
    repaired = repair_ics("BEGIN:VCALENDAR\nBEGIN:VEVENT\nORGANIZER;CN=老师\nEND:VEVENT\nEND:VCALENDAR\n")
    assert repaired.repairs == () and "ORGANIZER" not in repaired.text


# --- What an event says of its course --------------------------------------------------------------

@pytest.mark.parametrize("summary, location, description, expected", [
    ("矩阵理论@主M101", "", "课程名称：矩阵理论\\;上课地点：主M101\\;教师：甲\\,乙", ("矩阵理论", "主M101", "甲、乙", "")),
    ("计算系统安全 - 信南B235", "", "任课教师：赵一。", ("计算系统安全", "信南B235", "赵一", "")),
    ("马原 - 钱二", "麦二教2104", "", ("马原", "麦二教2104", "钱二", "")),
    ("高等数学(2-2)|第 1、2 节", "南教401", "孙三(副教授)", ("高等数学(2-2)", "南教401", "孙三", "")),
    ("Web程序设计", "东十二楼F202", "星期三 从第3周到第8周\\,由李四老师任教", ("Web程序设计", "东十二楼F202", "李四", "")),
    ("马克思主义基本原理", "广A415", "00000/周五/无\\;00001/吴六/副教授", ("马克思主义基本原理", "广A415", "周五、吴六", "")),
    ("Math I 11:00 AM-01:00 PM ROOM: Cohort Classroom 2 (1.315)", "", "", ("Math I", "Cohort Classroom 2 (1.315)", "", "")),
    ("数字逻辑", "北705", "必修郑七", ("数字逻辑", "北705", "", "必修郑七")),
    ("经济法", "", "LAW3001 经济法\\n主讲：王八（副教授）\\n上课地点：明理楼110",
     ("经济法", "明理楼110", "王八", "课程号：LAW3001")),
    ("英语视听说", "周 麦工商楼G103", "", ("英语视听说", "麦工商楼G103", "", "")),
    ("数值分析（理科楼A305）", "", "任课教师：韩松 课程号：MAT2104", ("数值分析", "理科楼A305", "韩松", "课程号：MAT2104")),
    ("工程制图 [实训中心305]", "", "授课教师：冯启，学分：2", ("工程制图", "实训中心305", "冯启", "学分：2")),
    ("大学英语(二)", "外语楼405", "Instructor: Emma Li, Room: 外语楼405", ("大学英语(二)", "外语楼405", "Emma Li", "")),
    ("C语言(实验)", "", "上课时间: 08:00-09:40 地点: A101", ("C语言(实验)", "A101", "", "上课时间: 08:00-09:40")),
])
def test_name_room_teacher_and_note_are_read_from_the_usual_places(summary, location, description, expected):
    facts = course_facts(summary, location, description.replace("\\;", ";").replace("\\,", ",").replace("\\n", "\n"))
    assert (facts.name, facts.location, facts.teacher, facts.note) == expected


@pytest.mark.parametrize("summary, location, description, expected", [
    # "课程 教师 @教室": the words after the course that read as people are the teacher.
    ("概率论 刘洋 @教三-201", "", "", ("概率论", "教三-201", "刘洋")),
    ("操作系统 王芳,李强 @信息楼B305", "", "", ("操作系统", "信息楼B305", "王芳、李强")),
    ("学术英语 Mark Allen @外语楼210", "", "", ("学术英语", "外语楼210", "Mark Allen")),
    ("C++ Primer @机房3", "", "", ("C++ Primer", "机房3", "")),
    # Spaced dash / slash parts: week text is dropped, the rest filed as room or teacher by its look.
    ("矿山测量 - 第1-16周 - 综合楼 A-302", "", "", ("矿山测量", "综合楼 A-302", "")),
    ("岩石力学 - 第1-15周(单) - 采矿楼214", "", "", ("岩石力学", "采矿楼214", "")),
    ("日语精读（二） / 博雅楼302 / 高桥美咲", "", "", ("日语精读（二）", "博雅楼302", "高桥美咲")),
    ("英语国家概况 / 线上 / Emily Stone", "", "", ("英语国家概况", "线上", "Emily Stone")),
    ("形势与政策 / 大礼堂", "", "", ("形势与政策", "大礼堂", "")),
    ("TCP/IP协议", "实验楼101", "", ("TCP/IP协议", "实验楼101", "")),
    # A bracketed course code before the name is not part of it (it goes to the note).
    ("[CHN2103]中国现当代文学", "南校区 文科楼B204 ", "", ("中国现当代文学", "南校区 文科楼B204", "")),
    # The key decides the field, whatever its wording; titles before or after names are dropped.
    ("机器学习", "线上", "授课老师：陈静 副教授\n会议密码：2024", ("机器学习", "线上", "陈静")),
    ("COMP2311 Lab", "", "Instructors: Omar Farouk, Prof. Jane Smith\nLocation: Kilburn LF31",
     ("COMP2311 Lab", "Kilburn LF31", "Omar Farouk、Jane Smith")),
    ("MATH2040 Lecture - Online", "", "Lecturer: Dr Priya Nair", ("MATH2040 Lecture", "Online", "Priya Nair")),
    ("教育学原理", "", "任课教师：何一 副教授，吴双 讲师\n授课地点：教育楼301", ("教育学原理", "教育楼301", "何一、吴双")),
    ("货币银行学(明德楼305)", "", "教室：明德楼305,任课教师：王伟 教授,周次：1-17单周",
     ("货币银行学", "明德楼305", "王伟")),
    ("矿山测量", "", "教师姓名：龚成/邢岚；节次：3-4节", ("矿山测量", "", "龚成、邢岚")),
    # A list of teachers goes on after '；' until another key.
    ("计算机网络实验", "", "任课教师：方宇；刘畅\n备注：带笔记本电脑", ("计算机网络实验", "", "方宇、刘畅")),
    ("计算机网络", "", "任课教师：方宇\n必修课", ("计算机网络", "", "方宇")),
    # A key about a person or a place is not that person or place; a course-number key is the code.
    ("体育", "操场", "授课方式：线下\n教师编号：T0931\n教室类型：室外", ("体育", "操场", "")),
    # A teacher right after its word with no colon; the word alone or in other words names nobody.
    ("离散数学", "启明楼N312", "必修课 任课老师彭远", ("离散数学", "启明楼N312", "彭远")),
    ("数据结构", "", "主讲教师 王宁、李明", ("数据结构", "", "王宁、李明")),
    ("班会", "", "由张三老师任教", ("班会", "", "张三")),
    ("班会", "", "选修 教师节活动", ("班会", "", "")),
    # The room in the name and the building with its address in LOCATION: the room is where to go.
    ("数字信号处理 - 明理楼C305", "某某大学明理楼C区\n大学路88号", "任课教师：陈可。", ("数字信号处理", "明理楼C305", "陈可")),
    ("概率论 - 明理楼C305", "明理楼C305\n大学路88号", "", ("概率论", "明理楼C305", "")),
    # A teacher in brackets after the name; round brackets also hold parts of a name.
    ("高等数学A(2)【张三】", "A101", "", ("高等数学A(2)", "A101", "张三")),
    ("数据结构(李四)", "", "", ("数据结构", "", "李四")),
    ("军事理论(王强、李明)", "", "", ("军事理论", "", "王强、李明")),
    ("大学英语(全英文)", "", "", ("大学英语(全英文)", "", "")),
    ("C语言(实验)", "", "", ("C语言(实验)", "", "")),
    ("形势与政策(四)", "", "", ("形势与政策(四)", "", "")),
    # A room in brackets before the name; "课程 教师 教室" with spaces; sections or weeks after the name.
    ("[博文楼201]大学英语", "", "", ("大学英语", "博文楼201", "")),
    ("大学物理 王五 博文楼201", "", "", ("大学物理", "博文楼201", "王五")),
    ("数据结构 第1-2节", "博文楼201", "", ("数据结构", "博文楼201", "")),
    ("数据结构 (1-2节)", "博文楼201", "", ("数据结构", "博文楼201", "")),
    ("数据结构 1-16周(单)", "博文楼201", "", ("数据结构", "博文楼201", "")),
    ("Python程序设计 3", "", "", ("Python程序设计 3", "", "")),
    # A family name first in capitals with a comma is one person; a longer key still decides the field.
    ("COMP2012 Object-Oriented Programming - Lecture L1", "Room 2407", "Instructor(s): WONG, Ka Ho",
     ("Object-Oriented Programming", "Room 2407", "WONG Ka Ho")),
    # A course code before a title goes to the note; before a kind of session it is the course's name.
    ("COMP2119 Introduction to Data Structures", "MWT2", "Instructor: HO Ka-yee and Dr. Priya NAIR",
     ("Introduction to Data Structures", "MWT2", "HO Ka-yee、Priya NAIR")),
    ("LAW3001 经济法", "", "", ("经济法", "", "")),
    ("CS101 Lecture L1", "", "", ("CS101 Lecture L1", "", "")),
    # A teacher's title inside the brackets; the lead teacher's star; names listed with spaces.
    ("线性代数【周宁(副教授)】", "", "", ("线性代数", "", "周宁")),
    ("操作系统", "", "教师: 李华* 陈思远 / 课序号: 03", ("操作系统", "", "李华、陈思远")),
    # A title after a slash or a space; a Latin name with its title in brackets; a class code in brackets.
    ("高等数学A(1)", "致远楼 301", "授课教师：杨帆/副教授", ("高等数学A(1)", "致远楼 301", "杨帆")),
    ("宏观经济学", "Teams", "主讲：葛晓燕 博士", ("宏观经济学", "Teams", "葛晓燕")),
    ("商务英语写作", "文华楼217", "Linda Zhou（讲师）\n1-8周 | 3-4节", ("商务英语写作", "文华楼217", "Linda Zhou")),
    ("体育(4)(PE1004.21)", "北区田径场", "教师:石磊", ("体育(4)", "北区田径场", "石磊")),
    # Traditional characters (Taiwan, Hong Kong): the keys and suffixes read as their simplified forms.
    ("微積分(一)", "理工大樓 E301", "授課教師：王大明 教授\n上課時間：星期一", ("微積分(一)", "理工大樓 E301", "王大明")),
    ("普通物理 第1-2節", "理工大樓 E105", "", ("普通物理", "理工大樓 E105", "")),
    # A course-kind tag before the name and a session after it go to the note; more keys for teachers.
    ("【必修】刑法学", "明德楼 A201", "教员：宋文清 副教授", ("刑法学", "明德楼 A201", "宋文清")),
    ("Foundations of Computing - Lecture 1", "Kwong Lee Dow-Theatre 1", "COMP10001_U_1_SM1\nStaff: Dr Aisha Rahman",
     ("Foundations of Computing", "Kwong Lee Dow-Theatre 1", "Aisha Rahman")),
    ("線形代数学Ⅰ", "3号館 302", "担当：田中一郎 先生\n第2限", ("線形代数学Ⅰ", "3号館 302", "田中一郎")),
    # A teacher alone with the word for one; a military academy's 教员 as key and title; German keys and titles.
    ("和声学", "教学楼 412", "顾明远老师", ("和声学", "教学楼 412", "顾明远")),
    ("体能训练", "训练场", "教员：孙强 教员、周勇 教员", ("体能训练", "训练场", "孙强、周勇")),
    ("Analysis für Informatik", "MI HS 1", "Vorlesung\nVortragende/r: Prof. Dr. Klaus Weber",
     ("Analysis für Informatik", "MI HS 1", "Klaus Weber")),
    ("钢琴主课", "琴房楼 516", "古典音乐", ("钢琴主课", "琴房楼 516", "")),
    # A class number and a portal's session in brackets; a dashed course code; Korean keys; pipes.
    ("数值分析（01班）", "研究生教学楼 B305", "主讲教师：程志远 教授", ("数值分析", "研究生教学楼 B305", "程志远")),
    ("CISB110 計算機程序設計 (實驗)", "E11-1025", "", ("計算機程序設計", "E11-1025", "")),
    ("C语言(实验)", "", "", ("C语言(实验)", "", "")),
    ("COMPSCI 201 - Data Structures and Algorithms (Lecture)", "AB 2103", "Instructor(s): Prof. Anna Li",
     ("Data Structures and Algorithms", "AB 2103", "Anna Li")),
    ("경영학원론", "경영관 B104", "교수: 박지훈", ("경영학원론", "경영관 B104", "박지훈")),
    ("视听语言", "影视楼 302", "授课教师：冉静 | 第1-2节 | 第1周", ("视听语言", "影视楼 302", "冉静")),
    ("高等数学", "教学楼101", "张伟 | 1-16周 | 第1-2节", ("高等数学", "教学楼101", "张伟")),
    ("高等数学", "教学楼101", "绪论 | 1-16周", ("高等数学", "教学楼101", "")),
    ("日语听力(二)", "日语楼305", "佐藤美咲", ("日语听力(二)", "日语楼305", "佐藤美咲")),
    ("水力学【东区3号教学楼-305】", "", "任课教师：冯建军 第1周 1-2节", ("水力学", "东区3号教学楼-305", "冯建军")),
    ("大学英语（三）", "外语楼405", "教师：Rachel Green（外教）；周次：1", ("大学英语（三）", "外语楼405", "Rachel Green")),
    ("Computer Organisation", "I3-AUD", "CS2100 Lecture [1]\nLecturer: A/Prof Ng Boon Hock",
     ("Computer Organisation", "I3-AUD", "Ng Boon Hock")),
    ("信号与系统", "信息楼3-305", "老师 郑婷婷", ("信号与系统", "信息楼3-305", "郑婷婷")),
    ("数字电路", "实验楼A405", "陈国庆老师的课，带计算器", ("数字电路", "实验楼A405", "陈国庆")),
    ("形势与政策", "", "教师节活动", ("形势与政策", "", "")),
    ("测量学实习【测量实训场】", "", "任课教师：魏东", ("测量学实习", "测量实训场", "魏东")),
    ("医学文献检索", "图书馆电子阅览室", "教师：于晓（馆员）", ("医学文献检索", "图书馆电子阅览室", "于晓")),
    ("大学英语(二)", "文科楼305", "教师 Laura Chen", ("大学英语(二)", "文科楼305", "Laura Chen")),
    ("服装史", "文科楼108", "教师 柳青（调休补课）", ("服装史", "文科楼108", "柳青")),
    ("【机械基础】", "教学楼A208", "授课老师：王红梅\n第1周", ("机械基础", "教学楼A208", "王红梅")),
    ("服装史", "文科楼108", "教师：柳青（调休补课）", ("服装史", "文科楼108", "柳青")),
    ("高等数学", "教学楼101", "高等数学", ("高等数学", "教学楼101", "")),
    ("教育心理学", "致知楼305", "宋晓梅、冯军 · 1-16周", ("教育心理学", "致知楼305", "宋晓梅、冯军")),
    ("Introduction to Programming", "Bernoulliborg 5161.0289", "Staff: dr. ir. R. Jansen, T. Smit MSc",
     ("Introduction to Programming", "Bernoulliborg 5161.0289", "R. Jansen、T. Smit")),
    ("高等数学", "", "授课人：刘洋\nProfessor: Dr. Ann Lee", ("高等数学", "", "刘洋、Ann Lee")),
    # A phone app's teacher and weeks on one line; a French system's lines: group, teacher (family name first), stamp.
    ("计量经济学", "通博楼B302", "杨帆 1-16周", ("计量经济学", "通博楼B302", "杨帆")),
    ("商务英语", "外语楼305", "Lisa Chen 2-16周双", ("商务英语", "外语楼305", "Lisa Chen")),
    ("Analyse numérique", "Amphi B", "\\nL3 MATHS-INFO\\nGr TD2\\nDUPONT Claire\\nLE GALL Anne-Marie\\n"
     "(Exporté le:28/08/2027 12:15)\\n", ("Analyse numérique", "Amphi B", "DUPONT Claire、LE GALL Anne-Marie")),
    ("Probabilités", "S-204", "TD Groupe\\nCM Amphi", ("Probabilités", "S-204", "")),
    # One capitalised word or letter after a course is no person ("大学物理 B").
    ("大学物理 B @教101", "", "", ("大学物理 B", "教101", "")),
])
def test_course_room_and_teacher_are_told_apart_however_the_exporter_joined_them(
        summary, location, description, expected):
    facts = course_facts(summary, location, description)
    assert (facts.name, facts.location, facts.teacher) == expected


def test_a_location_the_room_was_not_taken_from_is_kept_in_the_note():
    assert course_facts("数字信号处理 - 明理楼C305", "某某大学明理楼C区\n大学路88号").note == "地点：某某大学明理楼C区 大学路88号"
    assert course_facts("概率论", "明理楼C305\n大学路88号").note == "地址：大学路88号"


def test_a_french_export_keeps_its_group_lines_in_the_note_and_drops_its_export_stamp():
    note = course_facts("Analyse numérique", "Amphi B", "\\nL3 MATHS-INFO\\nGr TD2\\nDUPONT Claire\\n"
                        "(Exporté le:28/08/2027 12:15)\\n").note
    assert "L3 MATHS-INFO" in note and "Gr TD2" in note and "Export" not in note and "DUPONT" not in note


def test_a_course_code_taken_off_the_name_is_kept_in_the_note():
    assert course_facts("[CHN2103]中国现当代文学").note == "课程号：CHN2103"


@pytest.mark.parametrize("written, names", [
    ("Dr. Alice Moore", "Alice Moore"), ("Prof. 赵晨", "赵晨"), ("钟晓 教授", "钟晓"), ("周强讲师", "周强"),
    ("孙悦（讲师）", "孙悦"), ("教师C()", "教师C"), ("张敏,李强", "张敏、李强"), ("Drew Smith", "Drew Smith"),
    ("李娜 讲师、周强 讲师", "李娜、周强"), ("教授", "教授"), ("Dr Smith", "Smith"), ("", ""),
    ("陳建宏 助理教授、黃淑芬 講師", "陳建宏、黃淑芬"), ("杨帆/副教授", "杨帆"), ("王明*", "王明"),
    ("李华* 陈思远", "李华、陈思远"),
    ("HO Ka-yee and Dr. Priya NAIR", "HO Ka-yee、Priya NAIR"), ("WONG, Ka Ho", "WONG Ka Ho"),
    ("鈴木大輔、中村彩 TA", "鈴木大輔、中村彩"), ("Prof. Dr.-Ing. Lena Vogt", "Lena Vogt"),
    ("渡辺誠 准教授", "渡辺誠"), ("Anita Ta", "Anita Ta"), ("张三老师", "张三"), ("王老师", "王老师"), ("王教授", "王教授"),
])
def test_teachers_are_names_without_titles_joined_with_a_pause_mark(written, names):
    assert teacher_names(written) == names


def test_html_in_a_google_description_becomes_plain_text_in_the_note():
    facts = course_facts("Office Hours", "", "Zoom link:&nbsp;<br><i>https://example.invalid/j/1</i>")
    assert "<" not in facts.note and "https://example.invalid/j/1" in facts.note


# --- The section grid ------------------------------------------------------------------------------

def test_an_event_per_section_gives_the_schools_sections_outright():
    guess = infer_grid(spans(("08:00", "08:45", 30), ("08:50", "09:35", 30), ("14:00", "14:45", 8)), DEFAULT,
                       timedelta(0))
    assert guess is not None
    used = [s for s, n in zip(guess.sections, guess.uses) if n]
    assert used == [(t("08:00"), t("08:45")), (t("08:50"), t("09:35")), (t("14:00"), t("14:45"))]
    assert guess.own_time_spans == frozenset()


def test_two_and_three_section_blocks_are_cut_into_sections_of_about_45_minutes():
    guess = infer_grid(spans(("08:00", "09:40", 10), ("18:30", "21:05", 5)), DEFAULT, timedelta(0))
    assert guess is not None
    used = [f"{a:%H:%M}-{b:%H:%M}" for (a, b), n in zip(guess.sections, guess.uses) if n]
    assert used == ["08:00-08:45", "08:55-09:40", "18:30-19:15", "19:25-20:10", "20:20-21:05"]


def test_a_course_off_the_common_grid_keeps_its_own_times():
    guess = infer_grid(spans(("08:00", "09:35", 40), ("10:00", "11:35", 40), ("08:30", "10:05", 8)), DEFAULT,
                       timedelta(0))
    assert guess is not None and guess.own_time_spans == frozenset({(t("08:30"), t("10:05"))})


def test_sections_of_the_students_day_the_file_never_touches_are_kept():
    guess = infer_grid(spans(("10:10", "10:55", 5), ("11:05", "11:50", 5)), DEFAULT, timedelta(0))
    assert guess is not None
    assert guess.sections[:2] == ((t("08:00"), t("08:45")), (t("08:55"), t("09:40")))
    assert guess.uses[:4] == (0, 0, 5, 5)


def test_a_file_on_the_students_grid_proposes_nothing():
    assert infer_grid(spans(("08:00", "09:40", 3), ("10:15", "11:55", 3)), DEFAULT, timedelta(0)) is None


# --- The semester ----------------------------------------------------------------------------------

def weekly(first: date, weeks: int, text: str = "") -> DatedEvent:
    return DatedEvent(tuple(first + timedelta(weeks=n) for n in range(weeks)), text=text)


def test_the_students_semester_is_kept_when_the_file_lies_inside_it():
    assert infer_semester([weekly(date(2026, 9, 8), 16)], SEMESTER) is None


def test_a_term_half_of_whose_classes_come_before_the_students_semester_proposes_its_own():
    """A July term with a two-week break: the series reach into the student's September semester, but
    only their later half does, so the file's own week 1 is proposed (nothing is dropped unseen)."""
    def with_break(first: date) -> DatedEvent:
        return DatedEvent(tuple(first + timedelta(weeks=n) for n in (*range(6), *range(8, 14))))

    events = [with_break(date(2026, 7, 20)), with_break(date(2026, 7, 22))]
    semester = Semester(date(2026, 9, 7), 20)
    assert infer_semester(events, semester) == (date(2026, 7, 20), 14)


def test_a_term_one_week_earlier_than_the_students_semester_proposes_its_own():
    """Nearly every meeting lies in the student's semester, but the first week's do not: the file's
    term is not the student's, so its own week 1 is proposed rather than a week of classes dropped."""
    events = [weekly(date(2026, 8, 31) + timedelta(days=day), 18) for day in range(4)]
    assert infer_semester(events, Semester(date(2026, 9, 7), 20)) == (date(2026, 8, 31), 18)
    # One class moved before term is a stray: the student's semester stands and the meeting is listed.
    term = [weekly(date(2026, 9, 7) + timedelta(days=day), 18) for day in range(3)]
    assert infer_semester([*term, once(date(2026, 9, 2), "moved")], Semester(date(2026, 9, 7), 20)) is None


def test_week_one_is_the_monday_of_the_busiest_run_of_dates_ignoring_last_years_series():
    events = [weekly(date(2025, 2, 18), 16), weekly(date(2025, 2, 20), 16), weekly(date(2024, 3, 5), 10)]
    assert infer_semester(events, SEMESTER) == (date(2025, 2, 17), 16)  # through the last week of classes


def test_the_files_own_week_words_place_week_one_before_the_first_class():
    events = [weekly(date(2021, 9, 22), 6, "星期三 从第3周到第8周"), weekly(date(2021, 10, 5), 8, "星期二 从第5周到第12周")]
    assert infer_semester(events, SEMESTER) == (date(2021, 9, 6), 12)


def once(day: date, series: str) -> DatedEvent:
    return DatedEvent((day,), series=series)


def test_a_final_exam_after_a_week_without_classes_and_endless_office_hours_do_not_lengthen_the_semester():
    lectures = weekly(date(2024, 1, 9), 13)  # Tuesdays of weeks 1-13
    office_hours = DatedEvent(tuple(date(2024, 1, 15) + timedelta(weeks=n) for n in range(10)), endless=True)
    final_exam = once(date(2024, 4, 16), "Final Exam")  # week 15
    assert infer_semester([lectures, office_hours, final_exam], SEMESTER) == (date(2024, 1, 8), 13)


def test_one_offs_in_the_week_after_the_last_class_still_belong_to_the_term():
    lectures = weekly(date(2019, 5, 20), 13)
    assert infer_semester([lectures, once(date(2019, 8, 19), "a"), once(date(2019, 8, 22), "b")],
                          SEMESTER) == (date(2019, 5, 20), 14)


def test_a_lone_one_off_in_the_week_after_the_last_class_is_a_stray_not_a_week_of_the_term():
    lectures = weekly(date(2027, 9, 6), 18)  # Mondays of weeks 1-18
    final_exam = once(date(2028, 1, 12), "高等数学（上）期末考试")  # week 19's Wednesday
    assert infer_semester([lectures, final_exam], SEMESTER) == (date(2027, 9, 6), 18)


def test_events_per_meeting_of_one_class_count_as_a_weekly_class():
    meetings = [once(date(2024, 9, 10) + timedelta(weeks=n), "统计学|Tue 08:20") for n in range(17)]
    exam = once(date(2025, 1, 14), "微观经济学（期末考试）|Tue 09:00")  # week 19, a week without classes before it
    assert infer_semester([*meetings, exam], SEMESTER) == (date(2024, 9, 9), 17)



# --- Rules are never walked from their start --------------------------------------------------------

def test_a_daily_rule_since_year_one_costs_a_semester_of_work_not_two_thousand_years():
    data = ("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:a\r\nSUMMARY:x\r\nDTSTART:00010101T080000\r\n"
            "DTEND:00010101T094000\r\nRRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR,SA,SU\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n")
    calls = {"n": 0}

    def clock() -> float:
        calls["n"] += 1
        return 0.0

    reading = read_ics(data, ZoneInfo("Asia/Shanghai"), WorkBudget.start(2, clock))
    meetings, skips = expand_events(reading, SEMESTER)
    assert skips == [] and len(meetings[0].dates) == 140  # every day of the 20-week semester
    report = parse_timetable(data.encode(), "ics", SEMESTER, DEFAULT, fit="file")
    assert report.proposal is None and len(report.courses) == 7  # one course per weekday, in the student's term


# --- A grid that changes on a date -----------------------------------------------------------------

def dated_weeks(first: date, weeks: range, *pairs: tuple[str, str]) -> dict[tuple[time, time], list[date]]:
    return {(t(a), t(b)): [first + timedelta(weeks=w) for w in weeks] for a, b in pairs}


def test_afternoons_that_move_on_a_date_give_a_second_grid_from_that_monday():
    monday = date(2025, 9, 1)
    morning = dated_weeks(monday, range(16), ("08:00", "08:45"), ("08:50", "09:35"))
    summer = dated_weeks(monday + timedelta(days=2), range(5), ("14:30", "15:15"), ("15:20", "16:05"))
    winter = dated_weeks(monday + timedelta(days=2), range(5, 16), ("14:00", "14:45"), ("14:50", "15:35"))
    dated = {**morning, **summer, **winter}
    whole = infer_grid({span: len(days) for span, days in dated.items()}, DEFAULT, timedelta(0))
    assert whole is not None and whole.own_time_spans  # one grid cannot hold both afternoons
    switch = infer_grid_switch(dated, whole, DEFAULT, timedelta(0))
    assert switch is not None and switch.effective == date(2025, 10, 6)  # the Monday of week 6
    assert (t("14:30"), t("15:15")) in switch.before.sections and (t("14:00"), t("14:45")) in switch.after.sections
    assert len(switch.before.sections) == len(switch.after.sections)


def test_a_course_at_its_own_times_all_term_is_no_change_of_grid():
    monday = date(2025, 9, 1)
    dated = {**dated_weeks(monday, range(16), ("08:00", "09:35"), ("10:00", "11:35")),
             **dated_weeks(monday + timedelta(days=3), range(16), ("08:30", "10:05"))}
    whole = infer_grid({span: len(days) for span, days in dated.items()}, DEFAULT, timedelta(0))
    assert whole is not None and whole.own_time_spans
    assert infer_grid_switch(dated, whole, DEFAULT, timedelta(0)) is None
