"""The day's pack for the regulator: one ZIP per gaming day, made as it is sent.

It holds the PDFs of the day's current run of the daily job, the CSVs of the day's rounds, their
corrections (re-settlements, voids, refunds), the incidents and the alerts of the day, each written
by the export of its list (the same table, the same columns), then `manifest.json` (the day, its
bounds, who made the pack and when, each file's name, size and SHA-256, the ledger's signed chain heads
of the day) and `SHA256SUMS`, which
`sha256sum -c` reads. Everything sits in one folder, `pitboss-pack-<day>/`.

The ZIP is written by the standard library's zipfile into a sink that is never sought (the entries
carry data descriptors), and each file is hashed while it is written: nothing is read twice and no
more than a chunk of rows is held (chunked_values), whatever the size of the day.

This app reads reports, rounds and alerts: it sits above them in pyproject's layers.
"""

import hashlib
import json
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from pathlib import Path

from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from alerts.views import AlertListView
from core.exports import chunked_values, csv_text
from core.gaming_day import GamingDay, last_closed_gaming_day
from ledger.services import day_heads
from reports.models import ReportDocument, ReportRun
from reports.records import current_run, run_standing
from rounds.access import ROUND_PAGES
from rounds.incident_views import IncidentListView, RefundTable, listed_refunds
from rounds.models import Refund
from rounds.registry import RoundKey
from rounds.resettlement_views import ResettlementListView
from rounds.tables import RoundTable
from rounds.views import ROUND_ORDERS, RoundListView, exported_rounds
from rounds.void_views import VoidListView

# Who may download a pack: who may read every list and report it holds (compliance, supervisors).
PACK_PERMISSIONS = (
    "reports.view_reportrun",
    "reports.view_reportdocument",
    ROUND_PAGES,
    "rounds.view_resettlement",
    "rounds.view_void",
    "rounds.view_incident",
    "rounds.view_refund",
    "alerts.view_alert",
)
MANIFEST = "manifest.json"
CHECKSUMS = "SHA256SUMS"
FILE_CHUNK = 64 * 1024
# Compressed bytes gathered before they are sent: one write to the client per 64 kB, not per row.
SEND_BYTES = 64 * 1024
PLAIN_FILE = 0o644 << 16  # rw-r--r-- once unzipped


class PackRefused(Exception):
    """No pack of the day: why, and the HTTP status that says it (404 no run, 409 not closed or a PDF
    that does not match its checksum, 410 a PDF missing)."""

    def __init__(self, message: str, status: int):
        super().__init__(message)
        self.message = message
        self.status = status


@dataclass
class PackFile:
    """One file of the pack: its name in the pack's folder, what it is, and its bytes as they are made.
    `rows` is counted while a CSV is written (its header left out)."""

    name: str
    about: str
    chunks: Callable[["PackFile"], Iterator[bytes]]
    rows: int | None = None


@dataclass
class Written:
    name: str
    about: str
    size: int
    sha256: str
    rows: int | None = None


@dataclass
class DayPack:
    run: ReportRun
    gaming_day: GamingDay
    made_at: datetime
    made_by: str
    files: list[PackFile]
    notes: list[str] = field(default_factory=list)
    ledger_heads: list[dict] = field(default_factory=list)

    @property
    def folder(self) -> str:
        return f"pitboss-pack-{self.run.day.isoformat()}"

    @property
    def filename(self) -> str:
        return f"{self.folder}.zip"


def pack_documents(run: ReportRun) -> list[ReportDocument]:
    """The PDFs a pack holds: the run's, one of each kind (reports.models holds one a run and kind).
    The one place that chooses them: a signed edition of a report, once there is one, is preferred
    here."""
    return list(ReportDocument.objects.filter(run=run).order_by("kind"))


def document_path(document: ReportDocument) -> Path:
    return Path(settings.PITBOSS_REPORTS_DIR) / document.path


def document_checked(document: ReportDocument) -> None:
    """Refuses the pack before it starts when a PDF is missing or differs from its recorded SHA-256."""
    path = document_path(document)
    if not path.is_file():
        raise PackRefused(f"The file of {document} is missing; run the day again.", 410)
    digest = hashlib.sha256()
    with path.open("rb") as file:
        while chunk := file.read(FILE_CHUNK):
            digest.update(chunk)
    if digest.hexdigest() != document.sha256:
        raise PackRefused(f"The file of {document} does not match its checksum; run the day again.", 409)


def document_file(document: ReportDocument) -> PackFile:
    def chunks(pack_file: PackFile) -> Iterator[bytes]:
        digest = hashlib.sha256()
        with document_path(document).open("rb") as file:
            while chunk := file.read(FILE_CHUNK):
                digest.update(chunk)
                yield chunk
        if digest.hexdigest() != document.sha256:
            # Changed since it was checked: better a broken download than a pack that lies.
            raise RuntimeError(f"The file of {document} changed while the pack was written.")

    return PackFile(
        name=Path(document.path).name,
        about=f"{document.get_kind_display()}, PDF of run {document.run_id} (SHA-256 as recorded)",
        chunks=chunks,
    )


def csv_file(name: str, about: str, values: Callable[[], Iterator[list]]) -> PackFile:
    """A CSV of a list's export values (the header, then each row's), counting its rows."""

    def chunks(pack_file: PackFile) -> Iterator[bytes]:
        pack_file.rows = -1  # the header

        def counted():
            for row in values():
                pack_file.rows += 1
                yield row

        for text in csv_text(counted()):
            yield text.encode()

    return PackFile(name=name, about=about, chunks=chunks)


def table_values(table_class, rows) -> Callable[[], Iterator[list]]:
    """A list's export values of `rows`, in their order (the table sorts nothing)."""
    return lambda: chunked_values(lambda chunk: table_class(chunk, order_by=()), rows)


def day_files(gaming_day: GamingDay, documents: list[ReportDocument]) -> list[PackFile]:
    day, starts, ends = gaming_day.day, gaming_day.starts_at, gaming_day.ends_at
    day_rounds = RoundKey.objects.filter(gaming_day=day).values("pk")
    rounds = exported_rounds(RoundListView.queryset.filter(gaming_day=day), ROUND_ORDERS["opened_at"])
    by_proposal = ("proposed_at", "pk")
    return [
        *(document_file(document) for document in documents),
        csv_file(
            "rounds.csv",
            "The day's rounds, oldest first: the round list's export",
            lambda: chunked_values(lambda chunk: RoundTable(chunk, order_by=None), rounds),
        ),
        csv_file(
            "resettlements.csv",
            "Re-settlements proposed for the day's rounds, whatever their status: the list's export",
            table_values(
                ResettlementListView.table_class,
                ResettlementListView.queryset.filter(round_id__in=day_rounds).order_by(*by_proposal),
            ),
        ),
        csv_file(
            "voids.csv",
            "Voids proposed for the day's rounds, whatever their status: the list's export",
            table_values(
                VoidListView.table_class,
                VoidListView.queryset.filter(round_id__in=day_rounds).order_by(*by_proposal),
            ),
        ),
        csv_file(
            "refunds.csv",
            "Bets of the day's rounds refunded in an incident: an incident's refunds export",
            table_values(
                RefundTable,
                listed_refunds().filter(gaming_day=day).order_by("bet__round__round_id", "pk"),
            ),
        ),
        csv_file(
            "incidents.csv",
            "Incidents opened during the gaming day, or naming or refunding one of its rounds: the "
            "incident list's export",
            table_values(
                IncidentListView.table_class,
                IncidentListView.queryset.filter(
                    Q(opened_at__gte=starts, opened_at__lt=ends)
                    | Q(round_id__in=day_rounds)
                    | Q(pk__in=Refund.objects.filter(gaming_day=day).values("incident"))
                ).order_by("opened_at", "pk"),
            ),
        ),
        csv_file(
            "alerts.csv",
            "Alerts first seen during the gaming day: the alert list's export",
            table_values(
                AlertListView.table_class,
                AlertListView.queryset.filter(first_seen__gte=starts, first_seen__lt=ends).order_by(
                    "first_seen", "pk"
                ),
            ),
        ),
    ]


def archived_note(day: date) -> str | None:
    """What rounds.csv lacks when part of the day was archived: the round list reads the database."""
    registered = RoundKey.objects.filter(gaming_day=day).count()
    stored = RoundListView.queryset.filter(gaming_day=day).count()
    if registered <= stored:
        return None
    return (
        f"{registered - stored} of the day's {registered} rounds are archived (their month was "
        "exported and dropped): rounds.csv and refunds.csv hold only the rounds still in the database. "
        "Restore the month (manage.py archive_restore TABLE YYYY-MM) and download the pack again."
    )


def day_pack(day: date, user) -> DayPack:
    """The pack of a closed gaming day with a succeeded run; PackRefused says why there is none."""
    if day > last_closed_gaming_day():
        raise PackRefused(f"The gaming day {day} has not closed yet: its pack is made once it has.", 409)
    run = current_run(day)
    if run is None:
        raise PackRefused(
            f"The gaming day {day} has no succeeded run of the daily job: run the day, then download.", 404
        )
    documents = pack_documents(run)
    for document in documents:
        document_checked(document)
    gaming_day = GamingDay(run.day, run.time_zone, run.cutoff)
    notes = []
    if run.figures_only:
        notes.append(f"Run {run.pk} stored figures only: the pack holds no PDF.")
    staleness = run_standing(run).staleness
    if staleness.total:
        notes.append(
            f"Corrections recorded after run {run.pk} started ({staleness.text}): its PDFs may not count "
            "them; the CSVs do."
        )
    if note := archived_note(day):
        notes.append(note)
    heads = [
        {
            "chain": head.chain,
            "sequence": head.sequence,
            "entry_sha256": head.entry_sha256,
            "signature": head.signature,
        }
        for head in day_heads(day)
    ]
    if not heads:
        notes.append(
            "The ledger's heads of this day are not signed yet: the daily task signs them after the day."
        )
    return DayPack(
        run=run,
        gaming_day=gaming_day,
        made_at=timezone.now(),
        made_by=user.get_username(),
        files=day_files(gaming_day, documents),
        notes=notes,
        ledger_heads=heads,
    )


def manifest(pack: DayPack, written: list[Written]) -> dict:
    run, gaming_day = pack.run, pack.gaming_day
    return {
        "pack": pack.folder,
        "gaming_day": {
            "day": gaming_day.day.isoformat(),
            "time_zone": gaming_day.time_zone,
            "cutoff": gaming_day.cutoff.isoformat("minutes"),
            "starts_at": gaming_day.starts_at.isoformat(),
            "ends_at": gaming_day.ends_at.isoformat(),
        },
        "made_at": pack.made_at.astimezone(UTC).isoformat(),
        "made_by": pack.made_by,
        "report_run": {
            "id": run.pk,
            "number": run.number,
            "started_at": run.started_at.astimezone(UTC).isoformat(),
            "finished_at": run.finished_at.astimezone(UTC).isoformat() if run.finished_at else None,
            "figures_sha256": run.figures_sha256,
        },
        "files": [
            {"name": file.name, "size": file.size, "sha256": file.sha256, "about": file.about}
            | ({} if file.rows is None else {"rows": file.rows})
            for file in written
        ],
        "notes": pack.notes,
        # Each chain's last entry by the day's end, signed with the ledger's key (HMAC-SHA256):
        # `manage.py ledger_verify` holds the ledger to them (ledger.services.day_heads).
        "ledger_heads": pack.ledger_heads,
        "checksums": f"{CHECKSUMS}: every file above and {MANIFEST}, as `sha256sum -c {CHECKSUMS}` reads it",
    }


def checksum_lines(written: list[Written]) -> str:
    """sha256sum's own format: the digest, two spaces (text mode), the name."""
    return "".join(f"{file.sha256}  {file.name}\n" for file in written)


class ZipSink:
    """What zipfile writes into: kept until sent. No tell() or seek(): zipfile then writes each entry's
    sizes and CRC after its data (a data descriptor) and never goes back."""

    def __init__(self):
        self.parts: list[bytes] = []
        self.pending = 0

    def write(self, data) -> int:
        self.parts.append(bytes(data))
        self.pending += len(data)
        return len(data)

    def flush(self) -> None:
        pass

    def take(self) -> bytes:
        data = b"".join(self.parts)
        self.parts.clear()
        self.pending = 0
        return data


def pack_entry(pack: DayPack, name: str) -> zipfile.ZipInfo:
    entry = zipfile.ZipInfo(f"{pack.folder}/{name}", date_time=pack.made_at.astimezone(UTC).timetuple()[:6])
    entry.compress_type = zipfile.ZIP_DEFLATED
    entry.external_attr = PLAIN_FILE
    return entry


def pack_zip(pack: DayPack) -> Iterator[bytes]:
    """The pack's ZIP, SEND_BYTES or so at a time: the files, then the manifest, then SHA256SUMS."""
    sink = ZipSink()
    written: list[Written] = []
    with zipfile.ZipFile(sink, "w") as archive:
        for file in pack.files:
            digest, size = hashlib.sha256(), 0
            # ZIP64 sizes: a CSV's size is known only once written, and may pass 4 GB.
            with archive.open(pack_entry(pack, file.name), "w", force_zip64=True) as entry:
                for chunk in file.chunks(file):
                    digest.update(chunk)
                    size += len(chunk)
                    entry.write(chunk)
                    if sink.pending >= SEND_BYTES:
                        yield sink.take()
            written.append(Written(file.name, file.about, size, digest.hexdigest(), file.rows))
        content = json.dumps(manifest(pack, written), indent=2).encode() + b"\n"
        archive.writestr(pack_entry(pack, MANIFEST), content)
        written.append(Written(MANIFEST, "This manifest", len(content), hashlib.sha256(content).hexdigest()))
        archive.writestr(pack_entry(pack, CHECKSUMS), checksum_lines(written))
    yield sink.take()
