"""Run every tests/benchmarks/bench_*.py module's main(), in name order (`make bench`).

A benchmark prints its own figures; this runner names each one and times it as a whole.
With no benchmark modules yet it says so and succeeds. A benchmark that needs the ORM calls
django.setup() itself; DJANGO_SETTINGS_MODULE is set for it.
"""

import importlib
import os
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
PACKAGE = "tests.benchmarks"


def discover() -> list[str]:
    return [f"{PACKAGE}.{path.stem}" for path in sorted(HERE.glob("bench_*.py"))]


def main() -> int:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    modules = discover()
    if not modules:
        print("No benchmarks yet (add tests/benchmarks/bench_<name>.py with a main()).")
        return 0
    for name in modules:
        module = importlib.import_module(name)
        print(f"== {name.rsplit('.', 1)[1]}", flush=True)
        started = time.perf_counter()
        module.main()
        print(f"   ({time.perf_counter() - started:.2f} s in all)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
