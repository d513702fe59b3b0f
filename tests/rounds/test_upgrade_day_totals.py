"""Rounds 0006 sums the day totals of the rounds a database already holds (a data migration), with
each side option's top odds from its round's configuration. It reads the configurations as they were
at that migration: read through today's model, it asked for columns tables 0004 adds later
(`decided_at`, `status`, ...), and upgrading a database that held rounds stopped there with "no such
column" (found reading the migrations; the upgrade itself, run on SQLite, failed the same way)."""

import importlib
import re

import pytest
from django.apps import apps
from django.db import connection
from django.test.utils import CaptureQueriesContext

from blackjack.rules import preset
from tests.factories import table

pytestmark = pytest.mark.django_db

migration = importlib.import_module("rounds.migrations.0006_day_totals_for_reports")


def test_the_day_totals_migration_asks_only_for_the_configuration_columns_it_had():
    """Given the models, it reads a configuration's id and rules (ordered by table and version),
    columns the table has had since tables 0001, and nothing the model gained later."""
    classic = table("CLS1", game="classic")

    with CaptureQueriesContext(connection) as queries:
        case, params = migration.top_odds_case(apps)

    (read,) = [query["sql"] for query in queries if "tables_tableconfiguration" in query["sql"]]
    asked = set(re.findall(r'"tables_tableconfiguration"\."(\w+)"', read))
    assert asked <= {"id", "rules", "table_id", "version"}, asked  # ordered by table and version
    # Each side option of the table's configuration, at its paytable's top odds.
    configuration = classic.configurations.get()
    for option in preset("classic").side_options:
        top = max(odds for _, odds in option.paytable)
        assert [configuration.pk, option.kind, top] in [params[i : i + 3] for i in range(0, len(params), 3)]
    assert case.startswith("CASE WHEN r.configuration_id = %s AND b.kind = %s")
