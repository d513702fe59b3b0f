"""A public rule sheet's PDF asked for with a varying `?at=`, kept, against its first render (issue 43;
`make bench BENCH=sheets`; DATABASE_URL must be PostgreSQL).

Issue 43's reproduction: 16 anonymous clients looping on `/rules/DLX1/pdf/?at=<varying>` made every
request render a PDF, and a signed-in user's round list went from 0.02 s to 4.2 s (median). Now each
sheet version's PDF is rendered once and kept (sheets/kept.py). Measured here, in one process through
Django's test client (middleware, view, queries; no server), in a scratch database
(<database>_bench_sheets, dropped at the end), on one table opened a day ago:

- first render: the kept rows deleted before each request, so each renders the PDF and keeps it
  (FIRST_RENDERS requests, each with its own `?at=`);
- kept: KEPT requests, each with a `?at=` no other request used, all within the same version;
- the same two for the English page, and a 404 (an unknown table) as the floor of any public request.

Figures are medians, and the kept request is given as a ratio to the first render in the same run (a
shared machine's speed drifts by the hour). Goal: a kept PDF at most 1/20 (5%) of a first render. The
per-address throttle is off here: one address asks for everything.
"""

import logging
import statistics
import time
from datetime import UTC, datetime, timedelta
from urllib.parse import quote

from .support import scratch_database, sized

FIRST_RENDERS = sized(7, 2)
KEPT = sized(300, 10)
GOAL_RATIO = 0.05


def main():
    with scratch_database("sheets") as database:
        if database is None:
            return
        opened = _prepare()
        _bench(opened)


def _prepare() -> datetime:
    from freezegun import freeze_time

    from tables.models import TableConfiguration
    from tables.odds import configuration_odds_compute
    from tables.services import table_set_status
    from tests.factories import table, user

    opened = datetime.now(UTC).replace(microsecond=0) - timedelta(days=1)
    started = time.perf_counter()
    with freeze_time(opened):
        dlx = table("DLX1", limits={"main": ("5.00", "2500.00"), "behind": ("5.00", "500.00")})
        for configuration in TableConfiguration.objects.filter(table=dlx):
            configuration_odds_compute(configuration=configuration)
        table_set_status(table=dlx, status="open", changed_by=user("supervisor"), reason="benchmark")
    seconds = time.perf_counter() - started
    print(f"   DLX1 made, its odds worked out and opened in {seconds:.1f} s", flush=True)
    return opened


def _bench(opened: datetime) -> None:
    from django.test import Client
    from django.test.utils import override_settings

    from sheets.models import KeptSheet

    client = Client(HTTP_HOST="localhost")
    moments = (opened + timedelta(seconds=n) for n in range(1, 10**6))

    def asked(path: str) -> tuple[float, bytes, str]:
        at = quote(next(moments).isoformat(), safe="")
        started = time.perf_counter()
        response = client.get(f"{path}?at={at}")
        seconds = time.perf_counter() - started
        assert response.status_code == 200, (path, response.status_code, response.content[:200])
        return seconds, response.content, response["ETag"]

    with override_settings(DEBUG=False, PITBOSS_SHEET_REQUESTS_PER_MINUTE=0):
        floor = []
        logging.getLogger("django.request").setLevel(logging.ERROR)  # not a line for each 404
        for _ in range(KEPT):
            started = time.perf_counter()
            assert client.get("/rules/NOPE1/").status_code == 404
            floor.append(time.perf_counter() - started)
        logging.getLogger("django.request").setLevel(logging.NOTSET)
        print(f"   a 404 (no such table), median of {KEPT}: {_ms(floor)}", flush=True)
        for label, path in (("PDF", "/rules/DLX1/pdf/"), ("page", "/rules/DLX1/")):
            first = []
            for _ in range(FIRST_RENDERS):
                KeptSheet.objects.all().delete()
                first.append(asked(path)[0])
            kept = [asked(path) for _ in range(KEPT)]
            assert len({content for _, content, _ in kept}) == len({etag for _, _, etag in kept}) == 1
            assert KeptSheet.objects.count() == 1, "a kept request rendered again"
            kept_seconds = [seconds for seconds, _, _ in kept]
            ratio = statistics.median(kept_seconds) / statistics.median(first)
            size = len(kept[0][1])
            print(
                f"   {label} ({size:,} bytes): first render, median of {FIRST_RENDERS}: {_ms(first)}; "
                f"kept, varying ?at=, median of {KEPT}: {_ms(kept_seconds)} "
                f"(p90 {_ms(kept_seconds, 0.9)}) = {ratio:.1%} of the first render",
                flush=True,
            )
            if label == "PDF":
                verdict = "met" if ratio <= GOAL_RATIO else "NOT met"
                print(f"   goal: a kept PDF <= {GOAL_RATIO:.0%} of a first render: {verdict}", flush=True)


def _ms(seconds: list[float], quantile: float = 0.5) -> str:
    """The median (or another quantile) of `seconds`, in milliseconds."""
    if quantile == 0.5:
        return f"{statistics.median(seconds) * 1000:.1f} ms"
    ordered = sorted(seconds)
    return f"{ordered[min(len(ordered) - 1, int(quantile * len(ordered)))] * 1000:.1f} ms"


if __name__ == "__main__":
    main()
