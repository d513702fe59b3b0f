"""Run by tests/test_parallel_runs.py under pytest-xdist, never collected on its own (its name is not
test_*.py): each test writes what its process sees to the folder PITBOSS_PROBE_DIR names."""

import json
import os
from pathlib import Path

import pytest
from django.db import connection

from config.celery import app
from tests.conftest import TEST_PROCESS


def write(name: str) -> None:
    seen = {
        "process": TEST_PROCESS,
        "database": connection.settings_dict["NAME"],
        "queue": app.conf.task_default_queue,
        "consumed": sorted(app.amqp.queues),
    }
    Path(os.environ["PITBOSS_PROBE_DIR"], f"{name}.json").write_text(json.dumps(seen))


@pytest.mark.django_db
@pytest.mark.parametrize("number", range(4))
def test_a_database_test(number):
    write(f"db-{number}")


@pytest.mark.postgres
def test_left_out_without_postgres():
    """Skipped on SQLite: its skip must reach the summary of a split run."""
    assert connection.vendor == "postgresql"
