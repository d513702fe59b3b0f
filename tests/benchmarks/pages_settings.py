"""bench_pages's server, as `make demo` and the tests run: the development settings, with the
baseline page (tests/benchmarks/pages_urls.py)."""

from config.settings import *  # noqa: F403

ROOT_URLCONF = "tests.benchmarks.pages_urls"
