"""Limits take an amount only as round documents write one (issue 44): ASCII digits, at most 12
before the point and 2 after it. Django's and DRF's decimal fields read more: `1e3` as 1000, `5_0`
as 50.00, `+5.00`, `5.`, ` 5.00`, and digits of other scripts (`٥`, `５`) as 5. Each is refused
naming the field, on the table-limit and personal-limit forms and API and by the limit check, and
stores nothing; a JSON number is refused as a round document refuses one (money is never a float).
One reader decides for all: blackjack.amounts.amount_of.
"""

import re
from decimal import Decimal

import pytest
from django.urls import reverse
from drf_spectacular.generators import SchemaGenerator

from blackjack.amounts import AMOUNT_PATTERN, amount_of
from blackjack.document import RoundFormatError, parse_round
from limits.models import PersonalLimit, TableLimit
from tests.api_support import client_as, make_player, make_table
from tests.fixtures import round_document
from tests.limits.test_pages import login
from tests.rounds.bad_documents import SEATED

NOT_AMOUNTS = [
    "1e3",
    "5_0",
    "+5.00",
    "5.",
    ".5",
    " 5.00",
    "5.00 ",
    "5.00\n",
    "٥",  # Arabic-Indic five
    "٥.٠٠",
    "５.００",  # full-width
    "5,00",
    "1,000.00",
    "-5.00",
    "5.001",
    "1" * 13,
    "Infinity",
    "NaN",
    "0x10",
    "5\u00a0000",
]
AMOUNTS = {"5": Decimal("5.00"), "5.5": Decimal("5.50"), "5.00": Decimal("5.00"), "0": Decimal("0.00")}


@pytest.mark.parametrize("text", NOT_AMOUNTS)
def test_the_reader_refuses_what_is_not_an_amount(text):
    with pytest.raises(ValueError):
        amount_of(text)


@pytest.mark.parametrize(("text", "value"), AMOUNTS.items())
def test_the_reader_takes_amounts_to_the_cent(text, value):
    assert amount_of(text) == value and amount_of(text).as_tuple().exponent == -2


@pytest.mark.parametrize("text", NOT_AMOUNTS)
def test_a_round_document_refuses_the_same(text):
    document = round_document(SEATED)
    document["bets"][0]["stake"] = text
    with pytest.raises(RoundFormatError) as refused:
        parse_round(document)
    assert refused.value.field == "bets[0].stake"


# --- the API ----------------------------------------------------------------------------------


@pytest.fixture
def world(db):
    make_table("DLX1", limits={"main": ("5.00", "500.00")})
    make_player("P1001")


def limits_stored() -> tuple:
    return (
        list(TableLimit.objects.values_list("kind", "min_stake", "max_stake").order_by("kind")),
        PersonalLimit.objects.count(),
    )


TABLE_LIMIT = {"table": "DLX1", "kind": "pair", "min_stake": "1.00", "max_stake": "100.00", "reason": "a"}
PERSONAL_LIMIT = {"max_stake": "50.00", "reason": "asked by the player", "seen_setting": 0}
CHECK = {"player": "P1001", "table": "DLX1", "kind": "main", "amount": "10.00"}


@pytest.mark.parametrize("value", [*NOT_AMOUNTS, 250, 0.1, 1e3, 100.0])
@pytest.mark.parametrize(
    ("role", "url", "body", "field"),
    [
        ("supervisor", "/api/table-limits/", TABLE_LIMIT, "max_stake"),
        ("supervisor", "/api/table-limits/", TABLE_LIMIT, "min_stake"),
        ("customer_service", "/api/players/P1001/personal-limits/", PERSONAL_LIMIT, "max_stake"),
        ("game_server", "/api/limits/check", CHECK, "amount"),
    ],
)
def test_the_api_refuses_what_is_not_an_amount_naming_the_field(world, role, url, body, field, value):
    before = limits_stored()
    response = client_as(role).post(url, {**body, field: value})
    assert response.status_code == 400, response.content[:300]
    assert list(response.json()) == [field], response.json()
    assert limits_stored() == before


def test_a_json_number_is_refused_with_what_to_send_instead(world):
    response = client_as("supervisor").post("/api/table-limits/", {**TABLE_LIMIT, "max_stake": 250})
    assert response.json() == {
        "max_stake": ['An amount is a decimal string such as "10.00", never a JSON number.']
    }


@pytest.mark.parametrize(("text", "value"), [("5", Decimal("5.00")), ("7.5", Decimal("7.50"))])
def test_the_api_takes_amounts(world, text, value):
    response = client_as("supervisor").post("/api/table-limits/", {**TABLE_LIMIT, "min_stake": text})
    assert response.status_code == 201, response.json()
    assert TableLimit.objects.get(kind="pair").min_stake == value
    check = client_as("game_server").post("/api/limits/check", {**CHECK, "amount": text})
    assert check.status_code == 200 and check.json()["allowed"] is True


# --- the forms --------------------------------------------------------------------------------


@pytest.mark.parametrize("value", NOT_AMOUNTS)
def test_the_table_limit_form_refuses_what_is_not_an_amount(client, world, value):
    login(client, "supervisor")
    before = limits_stored()
    data = {"kind": "main", "min_stake": "5.00", "max_stake": value, "reason": "a change"}
    response = client.post(reverse("limits:table_limit_set", args=["DLX1"]), data)
    assert response.status_code == 200
    assert list(response.context["form"].errors) == ["max_stake"], response.context["form"].errors
    assert limits_stored() == before


@pytest.mark.parametrize("value", NOT_AMOUNTS)
def test_the_personal_limit_form_refuses_what_is_not_an_amount(client, world, value):
    login(client, "customer_service")
    before = limits_stored()
    url = reverse("limits:personal_limit_set", args=["P1001"])
    data = {"kind": "", "table": "", "game": "", "seen_kind": "", "seen_table": "", "seen_game": ""}
    data.update({"seen_setting": 0, "min_stake": value, "max_stake": "", "reason": "asked"})
    response = client.post(url, data)
    assert response.status_code == 200
    assert list(response.context["form"].errors) == ["min_stake"], response.context["form"].errors
    assert limits_stored() == before


def test_the_table_limit_form_takes_an_amount(client, world):
    login(client, "supervisor")
    data = {"kind": "main", "min_stake": "5", "max_stake": "750.5", "reason": "a change"}
    response = client.post(reverse("limits:table_limit_set", args=["DLX1"]), data)
    assert response.status_code == 302
    assert TableLimit.objects.get(kind="main").max_stake == Decimal("750.50")


def test_the_schema_gives_the_readers_pattern_for_every_amount_a_request_sends():
    components = SchemaGenerator().get_schema(request=None, public=True)["components"]["schemas"]
    amounts = {
        (name, field): schema
        for name, component in components.items()
        if name.endswith("Request")
        for field, schema in component.get("properties", {}).items()
        if schema.get("format") == "decimal"
    }
    # A published RTP is a percentage, not an amount of money: DRF's own decimal, 0.01 to 100.00.
    percentage = amounts.pop(("PublishedRtpEnterRequest", "rtp"))
    assert percentage["pattern"] == r"^-?\d{0,3}(?:\.\d{0,2})?$"
    assert set(amounts) == {
        ("TableLimitSetRequest", "min_stake"),
        ("TableLimitSetRequest", "max_stake"),
        ("PersonalLimitSetRequest", "min_stake"),
        ("PersonalLimitSetRequest", "max_stake"),
        ("LimitCheckRequest", "amount"),
    }
    assert {schema["pattern"] for schema in amounts.values()} == {f"^{AMOUNT_PATTERN}$"}
    pattern = re.compile(AMOUNT_PATTERN)  # fullmatch: Python's $ would let a trailing newline by
    assert not any(pattern.fullmatch(text) for text in NOT_AMOUNTS)
    assert all(pattern.fullmatch(text) for text in AMOUNTS)
