"""Configuration versions through the API: a change is a new version; a bad rule is 400 naming it."""

from datetime import timedelta

import pytest
from django.utils import timezone

from tables.models import TableConfiguration
from tests.api_support import client_as, make_table

URL = "/api/tables/DLX1/configurations/"
PAIR_6 = {"side_options": {"pair": {"paytable": {"mixed_pair": "6"}, "max_round": 30}}}


@pytest.fixture
def supervisor():
    return client_as("supervisor")


@pytest.mark.django_db
def test_a_change_is_a_new_version_with_the_rules_as_stored(supervisor):
    make_table()
    response = supervisor.post(URL, {"changes": PAIR_6, "reason": "promotion"})
    assert response.status_code == 201, response.json()
    body = response.json()
    assert (body["version"], body["reason"], body["created_by"]) == (2, "promotion", "api-supervisor")
    assert body["rules"]["side_options"]["pair"] == {"paytable": {"mixed_pair": "6"}, "max_round": 30}
    assert body["rules"] == TableConfiguration.objects.get(version=2).rules
    versions = supervisor.get(URL).json()["results"]
    assert [v["version"] for v in versions] == [2, 1]


@pytest.mark.django_db
def test_a_version_may_start_later_and_the_list_filters(supervisor):
    make_table()
    make_table("CLS1", game="classic")
    later = timezone.now() + timedelta(days=1)
    body = {"changes": {"auto_play": "stand"}, "valid_from": later.isoformat(), "reason": "from tomorrow"}
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
    response = supervisor.post(URL, body)
    assert response.status_code == 400
    assert field in response.json(), response.json()
    assert all(isinstance(messages, list) and messages for messages in response.json().values())
    assert TableConfiguration.objects.count() == 1
