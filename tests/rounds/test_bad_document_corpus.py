"""Replays the corpus of bad round documents (tests/rounds/bad_documents.py, issue 16): every one is
refused with a 4xx, never a 5xx, names what is wrong, and leaves nothing stored."""

import io
from collections import Counter

import pytest
from django.core.management import call_command

from limits.models import Player
from rounds.models import Bet, Finding, Round, Shoe, TableDayTotal
from tests.api_support import client_as
from tests.fixtures import round_document
from tests.rounds.bad_documents import SEATED, corpus

STORED = (Round, Shoe, Bet, Finding, Player, TableDayTotal)
CASES = corpus()


def stored() -> dict[str, int]:
    return {model.__name__: model.objects.count() for model in STORED}


def test_the_corpus_is_large_and_covers_every_category():
    names = [case.name for case in CASES]
    assert len(names) == len(set(names)), "each case has its own name"
    assert len(CASES) >= 120
    assert set(Counter(case.category for case in CASES)) >= {
        "ids",
        "types",
        "ranges",
        "times",
        "format",
        "shapes",
        "batch",
        "json",
        "media",
        "conflicts",
    }


@pytest.mark.django_db
def test_every_bad_document_is_refused_naming_it_and_stores_nothing():
    call_command("seed_demo", stdout=io.StringIO())
    game_server = client_as("game_server")
    assert game_server.post("/api/rounds/", round_document(SEATED), format="json").status_code == 201
    before = stored()
    wrong = []
    for case in CASES:
        response = game_server.generic("POST", "/api/rounds/", case.body, content_type=case.content_type)
        answer = response.json() if response["Content-Type"].startswith("application/json") else None
        if response.status_code != case.status:
            wrong.append(f"{case.name}: {response.status_code}, not {case.status}: {answer}")
        elif answer is None:
            wrong.append(f"{case.name}: the {response.status_code} is not JSON")
        elif case.field is not None and case.field not in answer:
            wrong.append(f"{case.name}: names {list(answer)}, not {case.field!r}")
        elif stored() != before:
            wrong.append(f"{case.name}: stored {stored()} (before: {before})")
            before = stored()
    assert not wrong, "\n".join(wrong)
