"""Every archived file recall opens is checked against its month's manifest first, and what was
found is kept, so that a later recall pays a look at the file's stamp and not a read of it.

A file is checked by its size and sha256 against the manifest's entry (the one the database recorded
when the month was exported, its signature checked: archive.signing). The verdict is kept in this
process, per file, with the stamp the file had when it was read: its modification time and size (on
S3, its LastModified). A file whose stamp is still the same is not read again; one rewritten since
(a new stamp) is checked again. So the first recall of a month in a process reads each file it opens
whole once (the cold verify: BENCHMARKS.md, bench_archive_checks), each later one asks for its stamp
(a stat; a HEAD on S3). A damaged file is refused every time (its verdict is kept too), a missing one
is looked for again on the next recall.

What this does not see: a file rewritten with the same size and its old modification time put back
(S3's LastModified is to the second, a local file's to the clock's tick). `archive_check` reads
every file whole, whatever its stamp.
"""

import threading
from dataclasses import dataclass

from pyarrow import fs

from rounds.archive_damage import ArchiveUnreadable

from .models import ArchivedMonth
from .signing import signature_problem
from .storage import ArchiveLocation

CHECK_COMMAND = "python manage.py archive_check {table} {month:%Y-%m}"


@dataclass(frozen=True)
class Verdict:
    stamp: tuple  # (modification time in ns, size in bytes, the manifest's sha256) when it was checked
    problem: str | None  # None: the file is the manifest's


_verdicts: dict[str, Verdict] = {}
_verdicts_lock = threading.Lock()


def verdicts_forget() -> None:
    """Forget every verdict kept: each file is read whole again when it is next opened (the cold
    verify, as in a new process)."""
    with _verdicts_lock:
        _verdicts.clear()


def verdict_of(location: ArchiveLocation, path: str) -> Verdict | None:
    """The verdict kept of the file at `path` (None: none yet)."""
    return _verdicts.get(_key(location, path))


def _key(location: ArchiveLocation, path: str) -> str:
    return f"{location.url}|{path}"


def unreadable(record: ArchivedMonth, file: str, problem: str, *, missing: bool) -> ArchiveUnreadable:
    return ArchiveUnreadable(
        table_code=record.table.code,
        month=record.month,
        file=file,
        problem=problem,
        missing=missing,
        location=record.location,
        check_command=CHECK_COMMAND.format(table=record.table.code, month=record.month),
    )


def manifest_checked(record: ArchivedMonth) -> None:
    """Raises ArchiveUnreadable (damaged) when the month's manifest's signature is wrong."""
    problem = signature_problem(record.manifest)
    if problem is not None:
        raise unreadable(record, "manifest.json", problem, missing=False)


def file_checked(record: ArchivedMonth, location: ArchiveLocation, path: str, entry: dict) -> None:
    """Raises ArchiveUnreadable when the file at `path` is not the one the manifest's `entry` names
    (damaged), or is not there (missing); returns when it is."""
    try:
        info = location.filesystem.get_file_info(path)
    except OSError as error:
        raise unreadable(
            record, entry["path"], f"the archive cannot be reached: {error}", missing=True
        ) from error
    if info.type != fs.FileType.File:
        raise unreadable(record, entry["path"], "the file is not in the archive", missing=True)
    stamp = (info.mtime_ns, info.size, entry["sha256"])
    key = _key(location, path)
    kept = _verdicts.get(key)
    if kept is None or kept.stamp != stamp:
        try:
            kept = Verdict(stamp, location.manifest_mismatch(path, entry, size=info.size))
        except OSError as error:  # gone, or out of reach, since its stamp was read
            raise unreadable(
                record, entry["path"], f"the file cannot be read: {error}", missing=True
            ) from error
        with _verdicts_lock:
            _verdicts[key] = kept
    if kept.problem is not None:
        raise unreadable(record, entry["path"], kept.problem, missing=False)


def month_checked(record: ArchivedMonth, location: ArchiveLocation) -> None:
    """Every file of the month checked against its manifest (as file_checked), its signature first."""
    manifest_checked(record)
    directory = location.month_dir(record.table.code, record.month)
    for entry in record.manifest["files"].values():
        file_checked(record, location, f"{directory}/{entry['path']}", entry)
