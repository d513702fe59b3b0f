"""Run every tests/benchmarks/bench_*.py module's main(), in name order (`make bench`), or only
those named on the command line (`make bench BENCH="reports pages"`), at the scale BENCH_SCALE names
(support.bench_scale: full, the default, or smoke, every benchmark in seconds).

A benchmark prints its own figures; this runner names each one and times it as a whole.
With no benchmark modules yet it says so and succeeds. A benchmark that needs the ORM calls
django.setup() itself; DJANGO_SETTINGS_MODULE is set for it.
"""

import importlib
import os
import secrets
import sys
import time
from pathlib import Path

from .support import SMOKE, bench_scale

HERE = Path(__file__).resolve().parent
PACKAGE = "tests.benchmarks"


def discover(names: list[str]) -> list[str]:
    stems = [path.stem for path in sorted(HERE.glob("bench_*.py"))]
    unknown = [name for name in names if f"bench_{name}" not in stems]
    if unknown:
        known = ", ".join(stem.removeprefix("bench_") for stem in stems)
        raise SystemExit(f"No benchmark named {', '.join(unknown)}; there are: {known}.")
    return [f"{PACKAGE}.{stem}" for stem in stems if not names or stem.removeprefix("bench_") in names]


def main(names: list[str]) -> int:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    # One key for this process and the servers it starts (their sessions are made here), long enough
    # for the production settings that bench_pages serves.
    os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))
    scale = bench_scale()
    modules = discover(names)
    if not modules:
        print("No benchmarks yet (add tests/benchmarks/bench_<name>.py with a main()).")
        return 0
    smoke = scale == SMOKE
    if smoke:
        print("Smoke scale (BENCH_SCALE=smoke): every benchmark's code at small sizes. Its figures are smoke")
        print("figures, printed to show it works, not to be compared with BENCHMARKS.md's or with its goals.")
    tag = ", smoke figures: not to be compared" if smoke else ""
    for name in modules:
        module = importlib.import_module(name)
        print(f"== {name.rsplit('.', 1)[1]}{' (smoke scale)' if smoke else ''}", flush=True)
        started = time.perf_counter()
        module.main()
        print(f"   ({time.perf_counter() - started:.2f} s in all{tag})", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
