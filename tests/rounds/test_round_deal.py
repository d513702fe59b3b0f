"""The deal the round page shows (`Round.dealer_cards`, `Round.shared`) is the document's, whether
written at ingest or by migration 0007 for rounds stored before it."""

import importlib

import pytest
from django.apps import apps

from rounds.models import Round
from tests.fixtures import ROUND_NAMES, round_document
from tests.rounds.corrections_support import demo, ingest  # noqa: F401

pytestmark = pytest.mark.usefixtures("demo")

deal_from_documents = importlib.import_module("rounds.migrations.0007_round_deal").deal_from_documents


def expected_deal(document: dict) -> tuple[str, dict | None]:
    shared = document.get("shared")
    return " ".join(document.get("dealer") or []), (
        {"initial": shared["initial"], "draws": shared.get("draws", [])} if shared else None
    )


@pytest.mark.parametrize("name", ROUND_NAMES)
def test_ingest_keeps_the_documents_deal(name):
    document = round_document(name)
    round_ = Round.objects.get(pk=ingest(document).pk)
    assert (round_.dealer_cards, round_.shared) == expected_deal(document)


def test_the_migration_writes_the_same_deal_for_rounds_stored_before():
    stored = {ingest(round_document(name)).pk: name for name in ROUND_NAMES}
    assert any(Round.objects.get(pk=pk).shared for pk in stored)  # a shared deal is among them
    Round.objects.update(dealer_cards="", shared=None)
    deal_from_documents(apps, None)
    for pk, name in stored.items():
        round_ = Round.objects.get(pk=pk)
        assert (round_.dealer_cards, round_.shared) == expected_deal(round_document(name)), name
