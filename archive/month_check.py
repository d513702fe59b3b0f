"""Check an archived month's files against its manifest, every byte, and sign the manifest that holds
(manage.py archive_check). What recall checks file by file as it opens them (archive.checks), read
whole here whatever the files' stamps, with the manifest in the archive held against the database's."""

from dataclasses import dataclass

from django.db import transaction

from .errors import ArchiveError
from .export import MANIFEST
from .models import ArchivedMonth, ArchiveStatus
from .restore import files_check
from .signing import SIGNATURE, manifest_bytes, manifest_key, manifest_signed
from .storage import archive_location

CHECKED = (ArchiveStatus.EXPORTED, ArchiveStatus.VERIFIED, ArchiveStatus.DROPPED)  # with files to check


@dataclass
class MonthChecked:
    record: ArchivedMonth
    problems: list[str]  # none: every file is the manifest's
    signed: bool = False  # signed here


def month_check(record: ArchivedMonth, *, sign: bool = False) -> MonthChecked:
    """The month's files held against its manifest. With `sign`, an unsigned manifest whose files all
    match it is signed (PITBOSS_ARCHIVE_MANIFEST_KEY), in the archive and in the database alike."""
    if record.status not in CHECKED or record.manifest is None:
        raise ArchiveError(f"{record}: it has no archived files to check")
    location = archive_location(record.archive_url)
    unsigned = sign and record.manifest.get(SIGNATURE) is None
    if unsigned and manifest_key() is None:
        raise ArchiveError("PITBOSS_ARCHIVE_MANIFEST_KEY is not set: there is no key to sign with")
    problems = files_check(record, location, signed=not unsigned)
    if problems or not unsigned:
        return MonthChecked(record, problems)
    signed = manifest_signed(record.manifest)
    directory = location.month_dir(record.table.code, record.month)
    with transaction.atomic():  # a manifest the archive could not take is not signed in the database
        record.manifest = signed
        record.save(update_fields=["manifest", "updated_at"])
        location.write_bytes(f"{directory}/{MANIFEST}", manifest_bytes(signed))
    return MonthChecked(record, [], signed=True)
