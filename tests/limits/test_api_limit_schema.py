"""What the limits API answers fits its schema where a value is empty (tests/test_api_fuzz.py found
a personal limit for every kind, game and table answering "", "" and null where the schema allowed
only a kind, a game and a string)."""

import json
from decimal import Decimal

import pytest
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.renderers import OpenApiJsonRenderer

from limits.models import TableLimit
from tests.api_support import client_as, make_player, make_table, set_personal


def components() -> dict:
    schema = json.loads(OpenApiJsonRenderer().render(SchemaGenerator().get_schema(request=None, public=True)))
    return schema["components"]["schemas"]


def choices(components: dict, field: dict) -> set[str]:
    """The values a field's enums allow (oneOf/allOf enum references)."""
    refs = [part["$ref"] for part in field.get("oneOf", []) + field.get("allOf", [])]
    return set().union(*(components[ref.rsplit("/", 1)[1]]["enum"] for ref in refs))


@pytest.mark.django_db
def test_a_personal_limit_for_every_kind_game_and_table_fits_the_schema():
    make_table()
    set_personal(make_player(), max_stake="50.00")
    row = client_as("customer_service").get("/api/personal-limits/").json()["results"][0]
    assert (row["kind"], row["game"], row["table"]) == ("", "", None)
    fields = components()["PersonalLimit"]["properties"]
    assert {"", "main"} <= choices(components(), fields["kind"])
    assert {"", "deluxe"} <= choices(components(), fields["game"])
    assert fields["table"]["nullable"] is True


@pytest.mark.django_db
def test_a_table_limit_change_without_user_or_reason_fits_the_schema():
    make_table()
    limit = TableLimit.objects.get()
    limit.max_stake = Decimal("400.00")
    limit.save()  # outside the services (a shell, a data migration): no user, no reason
    change = client_as("supervisor").get(f"/api/table-limits/{limit.pk}/history/").json()[0]
    assert (change["changed_by"], change["reason"]) == (None, None)
    fields = components()["TableLimitHistory"]["properties"]
    assert fields["changed_by"]["nullable"] is True and fields["reason"]["nullable"] is True
