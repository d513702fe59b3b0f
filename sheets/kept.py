"""The public sheets' answers, each rendered once and kept (issue 43).

A page, a PDF or the API's body is rendered the first time it is asked for and kept in the database
(sheets.models.KeptSheet), so every process and server shares it and it outlives any cache; after that
every request for it reads the row. Its key is the SHA-256 of everything the rendering reads:

- the sheet, as sheets.content.sheet_fingerprint states it: the table's code, name and currency, the
  configuration version (its rules, start and status), the limits in force, the published RTPs;
- the moment the sheet has read so publicly (sheets.opening.PublicSheet.in_force_from: the version's
  start, the limits' last change, the table's first opening), so one key is one sheet version;
- the language, the form (page, PDF or API body), and for a page its links;
- whether it answers a time asked (`?at=`): such a page or PDF says from when the sheet is in force,
  and its links name that moment, so every time within one version gets the same bytes;
- the revision: the digest of the sheet templates, the compiled catalogues, the number formats, the
  sheets app's code and the Django and WeasyPrint versions (sheet_revision).

A change of any of them is a new key, and so a new answer rendered once; a time asked within one
version is the same key. The ETag is the SHA-256 of the bytes kept. Two processes that render the
same answer at once both store it: the second insert finds the first's row (get_or_create on the
unique key) and both answer with the bytes kept.
"""

import hashlib
import json
import time
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from importlib.metadata import version as package_version
from urllib.parse import urlencode

from django.conf import settings
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from .content import SHEET_LANGUAGES, RuleSheet, render_sheet, sheet_fingerprint
from .models import KeptSheet
from .opening import PublicSheet
from .pdf import sheet_pdf

PAGE_TEMPLATE = "sheets/page.html"
LANGUAGE_NAMES = {"en": "English", "fil": "Filipino"}
# What a rendering reads besides the sheet (relative to BASE_DIR).
SOURCES = (
    "templates/sheets/*",
    "locale/*/LC_MESSAGES/django.mo",
    "core/formats/*/formats.py",
    "sheets/*.py",
)
PACKAGES = ("django", "weasyprint")


@dataclass(frozen=True)
class Answer:
    content: bytes
    etag: str


def kept_answer(public: PublicSheet, language: str, form: str, *, dated: bool) -> Answer:
    """The answer of `public` in `language` as `form` (a KeptSheet.Form); `dated`: for a time asked.
    Read from the database, or rendered and kept there the first time."""
    sheet = public.sheet
    in_force_from = public.in_force_from if dated else None
    links = sheet_links(sheet.table_code, language, in_force_from) if form == KeptSheet.Form.PAGE else []
    revision = sheet_revision()
    key = answer_key(public, language, form, dated, links, revision)
    kept = KeptSheet.objects.filter(key=key).values_list("content", "etag").first()
    if kept is not None:
        return Answer(bytes(kept[0]), kept[1])
    started = time.perf_counter()
    content = render(sheet, language, form, in_force_from, links)
    row, _ = KeptSheet.objects.get_or_create(
        key=key,
        defaults={
            "table_id": public.table_id,
            "version": sheet.version,
            "in_force_from": public.in_force_from,
            "language": language,
            "form": form,
            "dated": dated,
            "revision": revision,
            "content": content,
            "etag": f'"{hashlib.sha256(content).hexdigest()}"',
            "seconds": time.perf_counter() - started,
        },
    )
    return Answer(bytes(row.content), row.etag)


def answer_key(public: PublicSheet, language: str, form: str, dated: bool, links: list, revision: str) -> str:
    read = {
        "sheet": sheet_fingerprint(public.sheet),
        "in_force_from": public.in_force_from.isoformat(),
        "language": language,
        "form": form,
        "dated": dated,
        "links": links,
        "revision": revision,
    }
    return hashlib.sha256(json.dumps(read, sort_keys=True).encode()).hexdigest()


def render(sheet: RuleSheet, language: str, form: str, in_force_from: datetime | None, links: list) -> bytes:
    if form == KeptSheet.Form.PDF:
        return sheet_pdf(sheet, language, in_force_from=in_force_from)
    if form == KeptSheet.Form.BODY:
        return render_sheet(sheet, language).encode()
    return page_html(sheet, language, links, in_force_from).encode()


def page_html(sheet: RuleSheet, language: str, links=(), in_force_from: datetime | None = None) -> str:
    """The page of a sheet: the sheet and its links; `in_force_from`: said above it (a time asked)."""
    context = {"sheet": sheet, "language": language, "links": links, "in_force_from": in_force_from}
    with translation.override(language):
        return render_to_string(PAGE_TEMPLATE, context)


def sheet_links(code: str, language: str, in_force_from: datetime | None) -> list[dict]:
    """The page's links: the sheet in its other languages and its PDF, at `in_force_from` when given
    (a page for a time asked links the same sheet version, whatever time in it was asked)."""
    query = "" if in_force_from is None else "?" + urlencode({"at": in_force_from.isoformat()})
    links = [
        {"url": sheet_url(code, other) + query, "label": LANGUAGE_NAMES[other], "language": other}
        for other in SHEET_LANGUAGES
        if other != language
    ]
    pdf = reverse("sheets:sheet_pdf", args=[code])
    if language != SHEET_LANGUAGES[0]:
        pdf = reverse("sheets:sheet_language_pdf", args=[code, language])
    links.append({"url": pdf + query, "label": "PDF", "language": ""})
    return links


def sheet_url(code: str, language: str) -> str:
    if language == SHEET_LANGUAGES[0]:
        return reverse("sheets:sheet", args=[code])
    return reverse("sheets:sheet_language", args=[code, language])


def sheet_revision() -> str:
    """The digest of what a rendering reads besides the sheet (SOURCES, PACKAGES), by the files' contents
    and paths, so it is equal on every server that runs the same code and they share what they keep.
    Worked out once a process; with DEBUG on (development), looked at again on every request, so an
    edited template or catalogue shows without a restart."""
    if settings.DEBUG:
        return files_revision()
    return process_revision()


@cache
def process_revision() -> str:
    return files_revision()


def files_revision() -> str:
    """The revision as the files are now: read again only when a file's size or modification time
    changed."""
    stamps = []
    for pattern in SOURCES:
        for path in settings.BASE_DIR.glob(pattern):
            if path.is_file():
                stat, name = path.stat(), path.relative_to(settings.BASE_DIR).as_posix()
                stamps.append((name, stat.st_mtime_ns, stat.st_size))
    return files_digest(tuple(sorted(stamps)))


@cache
def files_digest(stamps: tuple[tuple[str, int, int], ...]) -> str:
    """The digest of the files named in `stamps` (path, modification time, size), by their contents
    and paths alone, and of the PACKAGES' versions."""
    digest = hashlib.sha256()
    for name in PACKAGES:
        digest.update(f"{name}=={package_version(name)}\n".encode())
    for path, _, _ in stamps:
        digest.update(
            path.encode() + b"\0" + hashlib.sha256(settings.BASE_DIR.joinpath(path).read_bytes()).digest()
        )
    return digest.hexdigest()
