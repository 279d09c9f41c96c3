"""The span of years the product accepts for any date or time a student gives it.

Why 1970-2100: a student's timetable, deadlines and plans never need more, and inside this range the
students' zones have whole-minute offsets (before 1901, Asia/Shanghai is local mean time, +08:05:43,
which is not valid RFC 3339); a year far away also overflows the semester's week arithmetic.
"""

EARLIEST_YEAR = 1970
LATEST_YEAR = 2100
