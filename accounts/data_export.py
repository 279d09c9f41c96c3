"""Download my data: one ZIP archive, streamed, with a JSON file per area and the timetable as .ics.

The format is versioned and described in docs/own-data.md. Rows are read with ``iterator()`` and
written into the archive as they come, and the archive is handed out chunk by chunk, so a large
account never sits in memory at once (Python's zipfile writes to a stream it cannot seek).
"""

from __future__ import annotations

import json
import zipfile
from collections.abc import Callable, Iterator
from datetime import date, datetime, time
from decimal import Decimal
from typing import IO, Any
from uuid import UUID

from django.core.cache import cache
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.data_ports import DataArea, data_areas
from accounts.exceptions import ExportBusyError
from accounts.models import User
from smartmate.platform.ratelimit import rate_limit_hit, user_key

FORMAT = "smartmate-export"
VERSION = 1
#: the .ics of the timetable, added by the schedule app (it knows how to write one)
ICS_NAME = "calendar.ics"
CHUNK_BYTES = 64 * 1024
EXPORT_LOCK_PREFIX = "data-export"
EXPORT_LOCK_SECONDS = 15 * 60  # a lock a crashed process left behind frees itself
# Never in an archive, whoever's they are: a password hash, a feed or ticket secret.
SECRET_FIELDS = frozenset({"password", "token", "token_hash", "secret"})
_ics_writer: Callable[[User], bytes] | None = None


def ics_writer_set(writer: Callable[[User], bytes] | None) -> None:
    """The schedule app registers how to write the student's timetable as .ics."""
    global _ics_writer
    _ics_writer = writer


class _Chunks:
    """A write-only file that keeps what was written until the streamer takes it."""

    def __init__(self) -> None:
        self._parts: list[bytes] = []
        self._written = 0
        self.waiting = 0  # bytes written and not yet taken

    def write(self, data: bytes) -> int:
        self._parts.append(bytes(data))
        self._written += len(data)
        self.waiting += len(data)
        return len(data)

    def tell(self) -> int:  # zipfile asks where it is; it never seeks back on an unseekable stream
        return self._written

    def flush(self) -> None:
        return None

    def take(self) -> bytes:
        data, self._parts, self.waiting = b"".join(self._parts), [], 0
        return data


def user_data_archive(*, user: User, now: datetime | None = None) -> Iterator[bytes]:
    """Yield the student's archive in chunks (a few rows' worth at a time)."""
    now = now or timezone.now()
    sink = _Chunks()
    with zipfile.ZipFile(sink, "w", compression=zipfile.ZIP_DEFLATED) as archive:  # type: ignore[call-overload]  # any object with write() is a file to zipfile
        areas = data_areas()
        _write_whole(archive, "manifest.json", _manifest(user, areas, now))
        _write_whole(archive, _("README.txt"), _readme(user, areas, now))
        yield sink.take()
        for area in areas:
            with archive.open(f"{area.name}.json", "w") as entry:
                for piece in _area_json(user, area):
                    entry.write(piece)
                    if sink.waiting > CHUNK_BYTES:
                        yield sink.take()
            yield sink.take()
        if _ics_writer is not None:
            _write_whole(archive, ICS_NAME, _ics_writer(user))
    yield sink.take()


def _write_whole(archive: zipfile.ZipFile, name: str, data: bytes) -> None:
    with archive.open(name, "w") as entry:
        entry.write(data)


def _manifest(user: User, areas: list[DataArea], now: datetime) -> bytes:
    manifest = {
        "format": FORMAT, "version": VERSION, "exported_at": now.isoformat(),
        "user": {"id": user.pk, "username": user.username},
        "files": [_("README.txt")] + [f"{area.name}.json" for area in areas] + ([ICS_NAME] if _ics_writer else []),
    }
    return json.dumps(manifest, ensure_ascii=False, indent=1).encode()


def _readme(user: User, areas: list[DataArea], now: datetime) -> bytes:
    """What the archive holds, in the student's language: each file, the times' zone, what to do with it."""
    zone = user.zone
    lines = [_("Your SmartMate data, downloaded %(when)s.") % {"when": timezone.localtime(now, zone).strftime(
        "%Y-%m-%d %H:%M")}, "",
             _("Times are in your time zone (%(zone)s); each carries its offset, e.g. +08:00.") % {"zone": str(zone)},
             "", _("The files:")]
    lines += [f"- {area.name}.json: {area.summary}" for area in areas]
    if _ics_writer is not None:
        lines.append(f"- {ICS_NAME}: " + _("your timetable and planned blocks as a calendar file: open it in any "
                                           "calendar app, or import it into a new SmartMate account."))
    lines += ["- manifest.json: " + _("the format and version of this archive, for programs that read it."), "",
              _("Each .json file holds tables of rows, one row per line, with the names the database uses.")]
    return ("\n".join(lines) + "\n").encode()


def _area_json(user: User, area: DataArea) -> Iterator[bytes]:
    """``{"format", "version", "area", "tables": {name: [row, ...]}}``, written row by row; times in the
    student's zone (with their offset, so still exact instants)."""
    def plain(value: Any) -> Any:
        if isinstance(value, datetime) and timezone.is_aware(value):
            return timezone.localtime(value, user.zone).isoformat()
        return _plain(value)

    yield (f'{{"format": "{FORMAT}/area", "version": {VERSION}, "area": {json.dumps(area.name)}, '
           f'"tables": {{').encode()
    tables = [(name, rows) for name, rows in area.tables(user).items() if name not in area.counted_only]
    for index, (name, rows) in enumerate(tables):
        yield f'{"," if index else ""}\n {json.dumps(name)}: ['.encode()
        fields = [f.attname for f in rows.model._meta.concrete_fields if f.name not in SECRET_FIELDS]
        for number, row in enumerate(rows.values(*fields).iterator(chunk_size=500)):
            yield (("," if number else "") + "\n  " + json.dumps(row, ensure_ascii=False, default=plain)).encode()
        yield b"\n ]"
    yield b"\n}}\n"


def _plain(value: Any) -> Any:
    """JSON for what ``values()`` returns besides JSON types."""
    if isinstance(value, (datetime, date, time)):   # time: an exam's hours, the preview time
        return value.isoformat()
    if isinstance(value, (UUID, Decimal)):
        return str(value)
    if isinstance(value, (bytes, memoryview)):
        return bytes(value).hex()
    raise TypeError(f"cannot export {type(value).__name__}")


def user_data_download(*, user: User) -> Iterator[bytes]:
    """The archive for the student's own download: rate-limited, and one at a time per student (a
    second one while the first still streams is refused, not queued: two would double the load).

    Raises RateLimited, ExportBusyError. The lock is held until the stream ends or is dropped.
    """
    rate_limit_hit("data_export", user_key(user))
    lock = f"{EXPORT_LOCK_PREFIX}:{user.pk}"
    if not cache.add(lock, 1, timeout=EXPORT_LOCK_SECONDS):
        raise ExportBusyError(_("Your data is already being downloaded; wait for that download to finish."))
    return _released_after(user_data_archive(user=user), lock)


def _released_after(chunks: Iterator[bytes], lock: str) -> Iterator[bytes]:
    try:
        yield from chunks
    finally:  # also when the client goes away: the server closes the stream
        cache.delete(lock)


def user_data_archive_write(*, user: User, out: IO[bytes]) -> int:
    """Write the whole archive to a file (the management command); return its size in bytes."""
    size = 0
    for chunk in user_data_archive(user=user):
        out.write(chunk)
        size += len(chunk)
    return size
