"""Time zones as a student names them: a short list to pick from, and the everyday names of a zone.

Students do not know IANA names: "北京时间", "CST" or "UTC+8" is what they type. The settings page
offers COMMON_TIME_ZONES in a select; forms and the API read any answer through ``time_zone_resolve``,
which turns an everyday name into the IANA zone and leaves a real IANA name as it is.
"""

from __future__ import annotations

import re
from functools import cache
from zoneinfo import available_timezones

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

# The zones a student of a Chinese university is most likely in, Beijing time first.
COMMON_TIME_ZONES: list[tuple[str, Promise]] = [
    ("Asia/Shanghai", _("Beijing time (UTC+8)")),
    ("Asia/Hong_Kong", _("Hong Kong (UTC+8)")),
    ("Asia/Macau", _("Macao (UTC+8)")),
    ("Asia/Taipei", _("Taipei (UTC+8)")),
    ("Asia/Urumqi", _("Urumqi (UTC+6)")),
    ("Asia/Singapore", _("Singapore (UTC+8)")),
    ("Asia/Tokyo", _("Tokyo (UTC+9)")),
    ("Asia/Seoul", _("Seoul (UTC+9)")),
    ("Australia/Sydney", _("Sydney (UTC+10/+11)")),
    ("Europe/London", _("London (UTC+0/+1)")),
    ("Europe/Berlin", _("Berlin, Paris (UTC+1/+2)")),
    ("America/New_York", _("New York (UTC-5/-4)")),
    ("America/Los_Angeles", _("Los Angeles (UTC-8/-7)")),
    ("UTC", _("Coordinated Universal Time (UTC)")),
]

# Everyday names, compared without spaces and case. China has one official zone, so "CST" here is China
# Standard Time (not US Central), which is what a student of this product means by it.
ALIASES = {
    "北京时间": "Asia/Shanghai", "中国时间": "Asia/Shanghai", "中国标准时间": "Asia/Shanghai",
    "东八区": "Asia/Shanghai", "cst": "Asia/Shanghai", "北京": "Asia/Shanghai", "上海": "Asia/Shanghai",
    "香港时间": "Asia/Hong_Kong", "香港": "Asia/Hong_Kong", "hkt": "Asia/Hong_Kong",
    "澳门时间": "Asia/Macau", "澳门": "Asia/Macau",
    "台北时间": "Asia/Taipei", "台北": "Asia/Taipei",
    "新疆时间": "Asia/Urumqi", "乌鲁木齐时间": "Asia/Urumqi",
    "东京时间": "Asia/Tokyo", "日本时间": "Asia/Tokyo", "jst": "Asia/Tokyo",
    "首尔时间": "Asia/Seoul", "韩国时间": "Asia/Seoul", "kst": "Asia/Seoul",
    "新加坡时间": "Asia/Singapore", "sgt": "Asia/Singapore",
    "伦敦时间": "Europe/London", "英国时间": "Europe/London",
    "纽约时间": "America/New_York", "美东时间": "America/New_York",
    "洛杉矶时间": "America/Los_Angeles", "美西时间": "America/Los_Angeles",
    "悉尼时间": "Australia/Sydney",
    "utc": "UTC", "gmt": "UTC", "协调世界时": "UTC", "世界时": "UTC",
}

# "UTC+8", "GMT+08:00", "UTC-5": a whole-hour offset from UTC.
OFFSET = re.compile(r"^(?:utc|gmt)?([+-])0?(\d{1,2})(?::?00)?$")


@cache
def _iana_names_by_folded_case() -> dict[str, str]:
    return {name.lower(): name for name in available_timezones()}


def time_zone_resolve(text: str) -> str | None:
    """Return the IANA zone ``text`` names ("北京时间", "CST", "UTC+8", "asia/shanghai"), or None."""
    folded = re.sub(r"\s+", "", text).lower()
    if not folded:
        return None
    if folded in ALIASES:
        return ALIASES[folded]
    if folded in _iana_names_by_folded_case():
        return _iana_names_by_folded_case()[folded]
    return _offset_zone(folded)


def _offset_zone(folded: str) -> str | None:
    match = OFFSET.match(folded)
    if match is None:
        return None
    sign, hours = match.group(1), int(match.group(2))
    if hours > 14:
        return None
    if (sign, hours) == ("+", 8):
        return "Asia/Shanghai"  # UTC+8 is Beijing time for our students (and follows no summer time)
    if hours == 0:
        return "UTC"
    # The Etc zones' signs are inverted by POSIX convention: Etc/GMT-9 is UTC+9.
    return f"Etc/GMT{'-' if sign == '+' else '+'}{hours}"


def time_zone_choices(current: str) -> list[tuple[str, str]]:
    """The select's options: the common zones, with the student's own first if it is not among them."""
    choices = [(zone, str(label)) for zone, label in COMMON_TIME_ZONES]
    if current and current not in dict(COMMON_TIME_ZONES):
        choices.insert(0, (current, current))
    return choices
