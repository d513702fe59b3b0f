"""bench_pages's server as deployed: the production settings (CACHE_URL's Redis cache), with the
baseline page (tests/benchmarks/pages_urls.py)."""

from config.settings_production import *  # noqa: F403

ROOT_URLCONF = "tests.benchmarks.pages_urls"
