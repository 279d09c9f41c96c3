"""Translatable wording of what the pure core reports in English by code.

The core (``schedule/core``) knows nothing of Django's i18n: it returns stable codes with
parameters. Here each code gets a translatable template; an unknown code or a template whose
parameters do not fit falls back to the core's English message, so nothing is ever lost.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import Any

from django.utils.translation import gettext, gettext_lazy, ngettext

from schedule.core.importers import ImportNotice, ImportProblem, SkippedEvent
from schedule.core.importers.clashes import UNNAMED_OCCUPANT
from schedule.core.importers.notices import (
    BesideAnother,
    DatesOutsideSemester,
    MergedDuplicate,
    RepeatClipped,
    SnappedToSections,
    WeeksClipped,
)

DAY_LABELS = [gettext_lazy("Monday"), gettext_lazy("Tuesday"), gettext_lazy("Wednesday"),
              gettext_lazy("Thursday"), gettext_lazy("Friday"), gettext_lazy("Saturday"), gettext_lazy("Sunday")]

PROBLEM_TEMPLATES: Mapping[str, Any] = {
    "file_too_large": gettext_lazy("The file is {size} bytes; imports are limited to {limit} bytes."),
    "empty_file": gettext_lazy("The file is empty."),
    "undecodable": gettext_lazy("The file is not readable text; save it as UTF-8 (or GBK) and try again."),
    "unknown_format": gettext_lazy("Unknown timetable format {format}; use csv, ics or json."),
    "no_courses": gettext_lazy("The file contains no courses."),
    "missing_column": gettext_lazy("The header has no “{header}” column ({field})."),
    "missing_value": gettext_lazy("{field} is empty."),
    "too_long": gettext_lazy("{field} is longer than {limit} characters."),
    "invalid_value": gettext_lazy("{field} has an unreadable value “{value}”."),
    "invalid_day": gettext_lazy("“{value}” is not a day of the week; use 1-7 (1 = Monday) or 周一..周日."),
    "invalid_section": gettext_lazy("{field} “{value}” is not a section number."),
    "unknown_section": gettext_lazy("Section {value} is outside the section template (sections 1..{count})."),
    "reversed_sections": gettext_lazy("The course starts at section {start} but ends at section {end}."),
    "clash": gettext_lazy("Clashes with row {other_row} ({other_name}) on {day_label}, {sections_label}, "
                          "weeks {weeks}."),
    "clash_with_existing": gettext_lazy("{name} clashes with {occupant} on {day_label}, {sections_label}, "
                                        "weeks {weeks}."),
    "invalid_json": gettext_lazy("The file is not valid JSON: {error}."),
    "json_too_deep": gettext_lazy("The file nests lists and objects too deeply to be a timetable."),
    "unknown_json_format": gettext_lazy("Expected a JSON object with \"format\": \"{expected}\" and a "
                                        "\"courses\" list."),
    # The parser's own words never reach the student: they are English and name its internals.
    "invalid_ics": gettext_lazy("The file is not a calendar file that can be read (.ics): it has no BEGIN:VCALENDAR "
                                "or cannot be read at all. Export it from your calendar app again."),
    "no_events": gettext_lazy("The calendar contains no events."),
    "all_day_event": gettext_lazy("{name} is an all-day event; only events at section times can be imported."),
    "missing_end": gettext_lazy("{name} has neither an end nor a duration."),
    "spans_days": gettext_lazy("{name} runs past midnight; an event must start and end on the same day."),
    "not_aligned": gettext_lazy("{name} ({start}-{end}) does not line up with the section times."),
    "unsupported_recurrence": gettext_lazy("{name} repeats in a way that cannot be imported; only weekly "
                                           "repetition is supported."),
    "outside_semester": gettext_lazy("{name} has a date outside the semester ({first} .. {last}): {date}."),
    "empty_weeks": gettext_lazy("No weeks given."),
    "invalid_weeks": gettext_lazy("Cannot read the weeks “{spec}”; use forms like 1-16, 1-16单, 2-16双 or 1,3,5-7."),
    "reversed_weeks": gettext_lazy("The week range {first}-{last} runs backwards."),
    "no_weeks": gettext_lazy("The week range “{part}” contains no week."),
    "week_out_of_range": gettext_lazy("Week {week} is outside the semester, which has weeks 1 to {max_week}."),
    "invalid_time": gettext_lazy("{field} “{value}” is not a time of day; write it as 8:00 or 14:30."),
    "reversed_times": gettext_lazy("The course starts at {start} but ends at {end}."),
    "grid_cell_unreadable": gettext_lazy("The cell under {column} cannot be read as courses: “{value}”; write "
                                         "it as “course teacher(1-16 room)”."),
    "grid_export_unreadable": gettext_lazy("This looks like a grid timetable exported from the academic affairs "
                                           "system, but none of its cells can be read; export it as WakeUp CSV "
                                           "or iCalendar (.ics) instead."),
    "unknown_csv_shape": gettext_lazy("This CSV is not a timetable SmartMate can read. It reads WakeUp CSV "
                                      "(课程名称,星期,开始节数,结束节数,老师,地点,周数, or 开始周,结束周,单双周 "
                                      "instead of 周数), clock-time CSV (课程名,星期几,开始时间,结束时间) and "
                                      "grid exports with 星期一…星期日 columns."),
}

# Why an event was left out of an import that goes ahead without it (schedule.core.importers.SKIP_MESSAGES).
SKIP_TEMPLATES: Mapping[str, Any] = {
    "no_name": gettext_lazy("An event has no name."),
    "all_day": gettext_lazy("“{name}” is an all-day event ({date}); add all-day events such as holidays under "
                            "Settings › School calendar › import .ics."),
    "damaged": gettext_lazy("“{name}” has an unreadable time ({field}: {value})."),
    "missing_end": gettext_lazy("“{name}” has no end time."),
    "spans_days": gettext_lazy("“{name}” runs past midnight or ends before it starts."),
    "not_weekly": gettext_lazy("“{name}” does not repeat weekly; only weekly classes are imported."),
    "outside_semester": gettext_lazy("“{name}” ({date}) has no meeting inside the semester ({first} to {last})."),
    "outside_sections": gettext_lazy("“{name}” ({start}–{end}) lies outside every section of the day."),
}

# One line per kind of skipped event, before its examples.
SKIP_SUMMARIES: Mapping[str, Any] = {
    "no_name": gettext_lazy("Events without a name"),
    "all_day": gettext_lazy("All-day events (holidays, deadlines, notes)"),
    "damaged": gettext_lazy("Events with an unreadable time"),
    "missing_end": gettext_lazy("Events without an end time"),
    "spans_days": gettext_lazy("Events past midnight"),
    "not_weekly": gettext_lazy("Events that do not repeat weekly"),
    "outside_semester": gettext_lazy("Events outside the semester"),
    "outside_sections": gettext_lazy("Events outside the day's sections"),
}

REPAIR_TEMPLATES: Mapping[str, Any] = {
    "blank_lines": gettext_lazy("Blank lines in the file were ignored (line {lines})."),
    "unreadable_lines": gettext_lazy("{count} lines that are not calendar properties were ignored (line {lines})."),
    "missing_end": gettext_lazy("The file ends without END:VCALENDAR; it was read up to its last line."),
    "line_endings": gettext_lazy("The file's line endings were irregular (stray CR); they were read as line breaks."),
}

FIELD_LABELS: Mapping[str, Any] = {
    "name": gettext_lazy("Course name"), "day": gettext_lazy("Day"), "start_section": gettext_lazy("First section"),
    "end_section": gettext_lazy("Last section"), "teacher": gettext_lazy("Teacher"),
    "location": gettext_lazy("Location"), "weeks": gettext_lazy("Weeks"), "note": gettext_lazy("Note"),
    "start_time": gettext_lazy("Start time"), "end_time": gettext_lazy("End time"),
}


def import_problem_message(problem: ImportProblem) -> str:
    """Return the problem in the active language, falling back to the core's English."""
    template = PROBLEM_TEMPLATES.get(problem.code)
    if template is None:
        return problem.message
    params = dict(problem.params)
    params.setdefault("field", FIELD_LABELS.get(problem.field or "", problem.field or ""))
    if isinstance(params.get("day"), int) and 1 <= params["day"] <= 7:
        params["day_label"] = DAY_LABELS[params["day"] - 1]
    if "first" in params and "last" in params and problem.code in ("clash", "clash_with_existing"):
        params["sections_label"] = sections_label(params["first"], params["last"])
    if params.get("occupant") == UNNAMED_OCCUPANT:
        params["occupant"] = gettext("an existing entry")
    try:
        return str(template).format(**params)
    except (KeyError, IndexError, ValueError):
        return problem.message


def week_spec_message(code: str, english: str, detail: Mapping[str, Any]) -> str:
    """Return a week-specification error (``schedule.core.weekspec``) in the active language."""
    template = PROBLEM_TEMPLATES.get(code)
    if template is None:
        return english
    try:
        return str(template).format(**detail)
    except (KeyError, IndexError, ValueError):
        return english


def skip_message(found: SkippedEvent) -> str:
    """Why one event was left out, in the active language, with the file's line when known."""
    params = dict(found.params, name=found.name)
    if isinstance(params.get("day"), int) and 1 <= params["day"] <= 7:
        params["day_label"] = DAY_LABELS[params["day"] - 1]
    if "first" in params and "last" in params and isinstance(params["first"], int):
        params["sections_label"] = sections_label(params["first"], params["last"])
    try:
        text = str(SKIP_TEMPLATES[found.code]).format(**params)
    except (KeyError, IndexError, ValueError):
        text = found.message
    if found.line:
        return gettext("Line %(line)s: %(text)s") % {"line": found.line, "text": text}
    return text


def skip_summary(code: str, count: int) -> str:
    """'All-day events: 37' for the heading over one kind of skipped event."""
    label = str(SKIP_SUMMARIES.get(code, code))
    return ngettext("%(label)s: %(count)d left out", "%(label)s: %(count)d left out", count) % {
        "label": label, "count": count}


def repair_message(code: str, lines: tuple[int, ...], count: int) -> str:
    """What was repaired to read a damaged calendar file."""
    template = REPAIR_TEMPLATES.get(code)
    if template is None:
        return code
    return str(template).format(lines="、".join(str(n) for n in lines), count=count)


def frame_not_adopted_message() -> str:
    return gettext("This file's semester or section times differ from your settings. Adopt the file's (one "
                   "click on the import page), or choose to keep yours.")


def frame_refused_message(reason: str) -> str:
    return gettext("The file's semester and section times cannot replace yours: %(reason)s") % {"reason": reason}


def skips_not_accepted_message(count: int) -> str:
    return ngettext("%(count)d event of the file cannot be imported; confirm to import the rest without it.",
                    "%(count)d events of the file cannot be imported; confirm to import the rest without them.",
                    count) % {"count": count}


def import_rejected_message(count: int, *, listed: int | None = None) -> str:
    """Say how many problems block the import and, when not all are listed, how many are left out."""
    message = ngettext("The timetable was not imported: %(count)d problem to fix.",
                       "The timetable was not imported: %(count)d problems to fix.", count) % {"count": count}
    if listed is None or listed >= count:
        return message
    more = count - listed
    return message + " " + ngettext("Only the first %(listed)d are listed; %(more)d more is not shown.",
                                    "Only the first %(listed)d are listed; %(more)d more are not shown.",
                                    more) % {"listed": listed, "more": more}


def import_too_complex_message(limit_seconds: float) -> str:
    message = gettext("The timetable is too complex to check: reading it took more than %(seconds)s seconds of "
                      "processing. Split it into smaller files or remove repeated rows.")
    return message % {"seconds": f"{limit_seconds:g}"}


def day_label(day: int) -> str:
    return str(DAY_LABELS[day - 1]) if 1 <= day <= 7 else str(day)


def sections_label(first: int, last: int) -> str:
    """Return "sections 1–2" (第 1–2 节), or "section 3" for a single one; the wording the board uses."""
    if first == last:
        return gettext("section %(first)s") % {"first": first}
    return gettext("sections %(first)s–%(last)s") % {"first": first, "last": last}


def import_notice_message(notice: ImportNotice) -> str:
    """Say what the importer adjusted, in the active language, from the notice's own typed fields."""
    match notice:
        case SnappedToSections():
            return gettext("%(name)s (%(start)s–%(end)s) is off the section times; it was placed on %(sections)s "
                           "(%(section_start)s–%(section_end)s).") % {
                "name": notice.name, "start": f"{notice.start:%H:%M}", "end": f"{notice.end:%H:%M}",
                "sections": sections_label(notice.first, notice.last),
                "section_start": f"{notice.section_start:%H:%M}", "section_end": f"{notice.section_end:%H:%M}"}
        case RepeatClipped():
            return gettext("%(name)s repeats past the end of the semester; only meetings up to %(last_day)s, the "
                           "semester's last day, were kept.") % {
                "name": notice.name, "last_day": _day_text(notice.last_day)}
        case DatesOutsideSemester():
            return ngettext("%(count)d meeting of %(name)s falls outside the semester (%(first)s to %(last)s) and "
                            "was left out.",
                            "%(count)d meetings of %(name)s fall outside the semester (%(first)s to %(last)s) and "
                            "were left out.", notice.count) % {
                "count": notice.count, "name": notice.name, "first": _day_text(notice.first_day),
                "last": _day_text(notice.last_day)}
        case WeeksClipped():
            return gettext("Weeks %(weeks)s of %(name)s are after the semester, which has weeks 1 to %(max_week)s; "
                           "they were left out.") % {
                "weeks": notice.dropped_text, "name": notice.name, "max_week": notice.max_week}
        case BesideAnother():
            return gettext("%(name)s is at the same time as %(other)s (%(day)s, %(sections)s) in weeks %(weeks)s; "
                           "both are kept and shown side by side.") % {
                "name": notice.name, "other": notice.other, "day": day_label(notice.day),
                "sections": sections_label(notice.first, notice.last), "weeks": notice.weeks_text}
        case MergedDuplicate():
            return gettext("Row %(row)s repeats %(name)s in weeks %(weeks)s; the two rows were merged into "
                           "one.") % {"row": notice.duplicate_row, "name": notice.name,
                                      "weeks": notice.shared_weeks_text}
    return notice.message  # a notice kind added to the core before its wording here


def _day_text(day: date) -> str:
    # "1月24日" in Chinese: Django's zh MONTH_DAY_FORMAT pads the month ("01月24日").
    return gettext("%(month)s/%(day)s") % {"month": day.month, "day": day.day}


TIME_ERROR_TEMPLATES: Mapping[tuple[str, str], Any] = {
    ("outside_semester", "week"): gettext_lazy("Week {week} is outside the semester (weeks 1..{weeks})."),
    ("outside_semester", "date"): gettext_lazy("{date} is outside the semester."),
    ("unknown_section", "section"): gettext_lazy("Section {section} does not exist; the day has sections 1..{count}."),
    ("invalid_day", "day"): gettext_lazy("Day of week must be 1..7 (1 = Monday), got {day}."),
    ("invalid_span", "first"): gettext_lazy("The span starts at section {first} but ends at section {last}."),
}


def time_error_message(code: str, english: str, detail: Mapping[str, Any]) -> str:
    """Return a time-model error in the active language (English from the core as fallback)."""
    for (known_code, key), template in TIME_ERROR_TEMPLATES.items():
        if known_code == code and key in detail:
            try:
                return str(template).format(**detail)
            except (KeyError, IndexError, ValueError):
                break
    return english
