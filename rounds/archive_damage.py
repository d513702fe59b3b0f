"""An archived month that recall cannot trust or reach: its answer, never a bare 500.

The archive (archive.checks) holds every file it opens against the month's manifest. A file whose
bytes are not the manifest's (a row changed or deleted, garbage written over it) is damaged: 409.
A file that is not there, or an archive that cannot be reached, is missing: 503 (it may come back).
The archive raises `ArchiveUnreadable` (rounds imports no archive: the exception is said here, as
rounds.recall says what it asks of an archive); `ArchiveUnreadableAnswer`, a middleware, turns it into
the API's JSON or the damaged-archive page (rounds/archive_unreadable.html), logged on one line.
"""

import logging
from dataclasses import dataclass
from datetime import date

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.cache import add_never_cache_headers

from core.api_path import is_api_request

log = logging.getLogger(__name__)
RETRY_AFTER = 300  # seconds: when a missing file's archive may be reachable again (503)
# Set on the request by the middleware: the logging filter then keeps Django's own line of the
# answer out of the log (the middleware's line says it all).
REQUEST_ATTRIBUTE = "archive_unreadable"


@dataclass(eq=False)  # an exception compares and hashes by identity
class ArchiveUnreadable(Exception):
    """Month `month` of table `table_code` cannot be read back: `file` (a manifest's name, such as
    bets.parquet) is damaged (`missing` False) or missing, for `problem`. `location` is where the
    month's files are; `check_command` checks them against the manifest again."""

    table_code: str
    month: date
    file: str
    problem: str
    missing: bool
    location: str
    check_command: str

    def __post_init__(self):
        super().__init__(self.message)

    @property
    def status(self) -> int:
        return 503 if self.missing else 409

    @property
    def state(self) -> str:
        return "missing" if self.missing else "damaged"

    @property
    def message(self) -> str:
        return (
            f"The archive of {self.table_code} {self.month:%Y-%m} is {self.state}: {self.file}: "
            f"{self.problem}. Nothing of the month is shown until its files are put back from the "
            f"archive's copy into {self.location}, then checked: {self.check_command}"
        )


class ArchiveUnreadableAnswer:
    """Middleware: a request whose archived month is damaged or missing answers 409 or 503, the API
    with `{"detail": ..., "archive": {...}}`, a page with rounds/archive_unreadable.html, and leaves one
    WARNING line in the log."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, ArchiveUnreadable):
            return None
        setattr(request, REQUEST_ATTRIBUTE, exception)
        log.warning("%s %s (%d): %s", request.method, request.path, exception.status, exception.message)
        if is_api_request(request):
            answer = JsonResponse(
                {
                    "detail": exception.message,
                    "archive": {
                        "table": exception.table_code,
                        "month": f"{exception.month:%Y-%m}",
                        "state": exception.state,
                        "file": exception.file,
                        "problem": exception.problem,
                        "check": exception.check_command,
                    },
                },
                status=exception.status,
            )
        else:
            answer = render(
                request, "rounds/archive_unreadable.html", {"damage": exception}, status=exception.status
            )
        if exception.missing:
            answer["Retry-After"] = str(RETRY_AFTER)
        add_never_cache_headers(answer)
        return answer


class AnsweredOnce(logging.Filter):
    """Keeps Django's own line of a request answered by ArchiveUnreadableAnswer ("Conflict: ...") out
    of the log: the middleware logged it, with why. Other records pass unchanged."""

    def filter(self, record: logging.LogRecord) -> bool:
        request = getattr(record, "request", None)
        return getattr(request, REQUEST_ATTRIBUTE, None) is None
