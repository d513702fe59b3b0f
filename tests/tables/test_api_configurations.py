"""Configuration versions through the API: a change is a proposed version, approved or rejected by a
second supervisor; a bad rule is 400 naming it."""

from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from tables.models import Table, TableConfiguration
from tables.odds import configuration_odds_compute
from tables.selectors import configuration_in_force
from tests import factories
from tests.api_support import client_as, make_table
from tests.second_factor_support import deciding_client

URL = "/api/tables/DLX1/configurations/"
PAIR_6 = {
    "side_options": {
        "pair": {
            "paytable": {
                "mixed_pair": "6",
                "coloured_pair": "10",
                "perfect_pair": "30",
                "suited_trips": "50",
            },
            "max_round": 30,
        }
    }
}


@pytest.fixture
def supervisor():
    return client_as("supervisor")


@pytest.mark.django_db
def test_a_change_is_a_new_version_with_the_rules_as_stored(supervisor):
    make_table()
    response = supervisor.post(URL, {"changes": PAIR_6, "reason": "promotion", "seen_version": 1})
    assert response.status_code == 201, response.json()
    body = response.json()
    assert (body["version"], body["reason"], body["created_by"]) == (2, "promotion", "api-supervisor")
    assert (body["status"], body["decided_by"], body["requested_from"]) == ("proposed", None, None)
    assert body["rules"]["side_options"]["pair"] == PAIR_6["side_options"]["pair"]
    assert body["rules"] == TableConfiguration.objects.get(version=2).rules
    versions = supervisor.get(URL).json()["results"]
    assert [v["version"] for v in versions] == [2, 1]


@pytest.mark.django_db
def test_a_version_may_start_later_and_the_list_filters(supervisor):
    make_table()
    make_table("CLS1", game="classic")
    later = timezone.now() + timedelta(days=1)
    body = {
        "changes": {"auto_play": "stand"},
        "valid_from": later.isoformat(),
        "reason": "from tomorrow",
        "seen_version": 1,
    }
    assert supervisor.post(URL, body).status_code == 201
    everything = supervisor.get("/api/table-configurations/").json()
    assert everything["count"] == 3
    dlx = supervisor.get("/api/table-configurations/?table=DLX1&ordering=version").json()["results"]
    assert [v["version"] for v in dlx] == [1, 2]
    after = (timezone.now() + timedelta(hours=1)).isoformat().replace("+00:00", "Z")
    pending = supervisor.get("/api/table-configurations/", {"valid_from_after": after}).json()["results"]
    assert [(v["table"], v["version"]) for v in pending] == [("DLX1", 2)]
    one = supervisor.get(f"/api/table-configurations/{pending[0]['id']}/").json()
    assert one["rules"]["auto_play"] == "stand"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"changes": {"blackjack_pays": "2"}, "reason": "x"}, "rules.blackjack_pays"),  # not changeable
        ({"changes": {"no_such_rule": 1}, "reason": "x"}, "rules.no_such_rule"),
        ({"changes": {"max_splits": 2}, "reason": "x"}, "rules.max_splits"),  # split once is the rule
        (
            {"changes": {"side_options": {"pair": {"paytable": {"mixed_pair": "0"}}}}, "reason": "x"},
            "rules.side_options.pair.paytable.mixed_pair",
        ),
        (
            {"changes": {"side_options": {"pair": {"paytable": {"mixed_pair": "-5"}}}}, "reason": "x"},
            "rules.side_options.pair.paytable.mixed_pair",
        ),
        (
            {"changes": {"side_options": {"pair": {"paytable": {"mixed_pair": 5.5}}}}, "reason": "x"},
            "rules.side_options.pair.paytable.mixed_pair",
        ),
        (
            {"changes": {"side_options": {"pair": {"paytable": {"mixed_pair": "6"}, "max_round": 0}}}},
            "reason",
        ),
        (
            {
                "changes": {"side_options": {"pair": {"paytable": {"mixed_pair": "6"}, "max_round": 0}}},
                "reason": "x",
            },
            "rules.side_options.pair.max_round",
        ),
        ({"changes": {"side_options": {"lucky_trio": None}}, "reason": "x"}, "rules.side_options.lucky_trio"),
        ({"changes": {"seats": 0}, "reason": "x"}, "rules.seats"),
        ({"changes": PAIR_6, "reason": "   "}, "reason"),
        ({"changes": PAIR_6, "reason": "x", "valid_from": "2020-01-01T00:00:00Z"}, "valid_from"),
        ({"changes": PAIR_6, "reason": "x", "valid_from": "tomorrow"}, "valid_from"),
        ({"changes": ["seats", 5], "reason": "x"}, "changes"),
        ({"reason": "x"}, "changes"),
        ({"changes": {"seats": 7}, "reason": "x"}, "rules"),  # nothing changes
        ({"changes": PAIR_6, "reason": "x", "version": 9}, "version"),
    ],
)
def test_a_bad_change_is_400_naming_the_rule_and_adds_no_version(supervisor, body, field):
    make_table()
    response = supervisor.post(URL, {"seen_version": 1, **body})
    assert response.status_code == 400
    assert field in response.json(), response.json()
    assert all(isinstance(messages, list) and messages for messages in response.json().values())
    assert TableConfiguration.objects.count() == 1


def decide(client, version: int, step: str, **body):
    pk = TableConfiguration.objects.get(table__code="DLX1", version=version).pk
    return client.post(f"/api/table-configurations/{pk}/{step}", body)


@pytest.mark.django_db
def test_a_second_supervisor_approves_once_the_odds_are_worked_out(supervisor):
    make_table()
    assert (
        supervisor.post(URL, {"changes": PAIR_6, "reason": "promotion", "seen_version": 1}).status_code == 201
    )
    second = deciding_client(factories.user("supervisor", "second-supervisor"), APIClient)

    early = decide(second, 2, "approve")
    assert early.status_code == 409 and "still being computed" in early.json()["non_field_errors"][0]
    configuration_odds_compute(configuration=TableConfiguration.objects.get(version=2))
    own = decide(supervisor, 2, "approve")
    assert own.status_code == 403 and "another supervisor" in own.json()["non_field_errors"][0]
    own_rejection = decide(supervisor, 2, "reject", comment="changed my mind")
    assert own_rejection.status_code == 403, own_rejection.json()
    assert TableConfiguration.objects.get(version=2).status == "proposed"

    approved = decide(second, 2, "approve", comment="checked")
    assert approved.status_code == 200, approved.json()
    body = approved.json()
    assert (body["status"], body["decided_by"], body["decision_comment"]) == (
        "approved",
        "second-supervisor",
        "checked",
    )
    assert configuration_in_force(Table.objects.get(code="DLX1")).version == 2


@pytest.mark.django_db
def test_a_rejection_needs_a_comment_and_a_stale_proposal_is_refused(supervisor):
    make_table()
    supervisor.post(URL, {"changes": PAIR_6, "reason": "promotion", "seen_version": 1})
    second = deciding_client(factories.user("supervisor", "second-supervisor"), APIClient)
    assert "comment" in decide(second, 2, "reject").json()
    rejected = decide(second, 2, "reject", comment="not this month")
    assert rejected.status_code == 200 and rejected.json()["status"] == "rejected"
    stale = supervisor.post(URL, {"changes": {"seats": 6}, "reason": "fewer", "seen_version": 1})
    assert stale.status_code == 400 and "since you opened" in stale.json()["non_field_errors"][0]
    fresh = supervisor.post(URL, {"changes": {"seats": 6}, "reason": "fewer", "seen_version": 2})
    assert fresh.status_code == 201 and fresh.json()["version"] == 3
    assert supervisor.get("/api/table-configurations/?status=rejected").json()["count"] == 1
