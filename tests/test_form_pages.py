"""Every form page shows every error of a post at once: each field's beside it, the form's and a
hidden field's above it, and a service's refusal on its field or above the form. Each is one page
template (includes/form_page.html) over one view (core.form_views.ServiceFormView); the status of
a refused post is as it was (200)."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils.html import escape

from limits.services import player_create
from tests.tables.test_pages import make_table

pytestmark = pytest.mark.django_db

FORM_PAGE = "includes/form_page.html"


@pytest.fixture
def client(client):
    client.force_login(get_user_model().objects.create_superuser("root", password="pw-root"))
    return client


def assert_every_error_shown(response, fields: set[str]) -> None:
    """Refused with an error on each of `fields` (`__all__`: above the form), every message of the
    form in the page, on the one form page template."""
    assert response.status_code == 200
    form = response.context["form"]
    assert fields <= set(form.errors), form.errors
    page = response.content.decode()
    for messages in form.errors.values():
        for message in messages:
            assert escape(message) in page, message
    for name in fields - {"__all__"}:
        if not form[name].is_hidden:
            assert f"field-{name} has-error" in page, name
    assert FORM_PAGE in [template.name for template in response.templates]


# (route, args, post, the fields refused); every route's page shows on GET too.
FORM_ERRORS = [
    (
        "limits:player_create",
        (),
        {"external_id": "bad id!", "currency": "BTC", "account_type": "real", "status": "gone"},
        {"external_id", "currency", "status"},
    ),
    (
        "limits:player_update",
        ("P1",),
        {"display_name": "x" * 101, "account_type": "real", "status": "gone", "reason": " "},
        {"display_name", "status", "reason"},
    ),
    (
        "tables:table_create",
        (),
        {"code": "", "game": "roulette", "currency": "BTC"},
        {"code", "name", "game"},
    ),
    (
        "tables:table_update",
        ("DLX1",),
        {"name": "", "studio": "", "reason": ""},
        {"name", "studio", "reason"},
    ),
    ("tables:table_status", ("DLX1",), {"status": "gone", "reason": ""}, {"status", "reason"}),
    (
        "limits:table_limit_set",
        ("DLX1",),
        {"kind": "nonsense", "min_stake": "1e3", "max_stake": "abc", "reason": ""},
        {"kind", "min_stake", "max_stake"},
    ),
    ("accounts:preferences", (), {"time_zone": "Mars/Olympus"}, {"time_zone"}),
    ("reports:run_start", (), {"day": "2026-13-45"}, {"day"}),
    (
        "rounds:incident_open",
        (),
        {"table": "NOPE", "kind": "gone", "round": "", "note": ""},
        {"table", "kind", "note"},
    ),
    ("rounds:resettlement_propose", (), {"round": "", "reason": ""}, {"round", "reason"}),
    ("rounds:void_propose", (), {"round": "", "reason": ""}, {"round", "reason"}),
]


@pytest.mark.parametrize(
    ("route", "args", "data", "fields"), FORM_ERRORS, ids=[row[0] for row in FORM_ERRORS]
)
def test_a_form_page_shows_every_field_error_of_a_post_at_once(client, route, args, data, fields):
    make_table("DLX1")
    player_create(external_id="P1", currency="EUR")
    url = reverse(route, args=args)
    assert FORM_PAGE in [template.name for template in client.get(url).templates]
    assert_every_error_shown(client.post(url, data), fields)


def test_a_services_refusal_shows_on_its_field_beside_the_other_fields(client):
    player_create(external_id="P1", currency="EUR")
    response = client.post(
        reverse("limits:player_create"),
        {"external_id": "P1", "currency": "EUR", "account_type": "real", "status": "active"},
    )
    assert_every_error_shown(response, {"external_id"})
    assert "Player P1 already exists." in response.context["form"].errors["external_id"]


def test_a_services_refusal_of_no_field_shows_above_the_form(client):
    make_table("CLS1", game="classic")
    from tests.tables.test_pages import configuration_form

    url = reverse("tables:configuration_change", args=["CLS1"])
    response = client.post(url, configuration_form(client, "CLS1", reason="nothing changes"))
    assert response.status_code == 200
    assert response.context["form"].non_field_errors()
    assert_every_error_shown(response, {"__all__"})


def test_the_configuration_page_shows_every_field_out_of_bounds_and_the_missing_reason_at_once(client):
    make_table("CLS1", game="classic")
    from tests.tables.test_pages import configuration_form

    url = reverse("tables:configuration_change", args=["CLS1"])
    data = configuration_form(client, "CLS1", perfect_pairs__mixed_pair="1e308", seats="99", reason="")
    assert_every_error_shown(client.post(url, data), {"perfect_pairs__mixed_pair", "seats", "reason"})


def test_the_personal_limit_page_shows_both_amounts_errors_at_once(client):
    player = player_create(external_id="P1", currency="EUR")
    url = reverse("limits:personal_limit_set", args=[player.external_id])
    page = client.get(url)
    data = {
        name: value if value is not None else ""
        for name, value in (
            (field.html_name, field.value())
            for form in (page.context["scope_form"], page.context["form"])
            for field in form
        )
    }
    data.update(min_stake="1e3", max_stake="abc", reason="", save="1")
    assert_every_error_shown(client.post(url, data), {"min_stake", "max_stake"})


def test_the_table_limit_page_shows_a_minimum_above_the_maximum_with_the_missing_reason(client):
    make_table("DLX1")
    url = reverse("limits:table_limit_set", args=["DLX1"])
    data = {"kind": "main", "min_stake": "5", "max_stake": "1", "reason": ""}
    response = client.post(url, data)
    assert_every_error_shown(response, {"min_stake", "reason"})
    assert "is above the maximum" in response.context["form"].errors["min_stake"][0]


def test_the_new_table_page_shows_a_taken_or_malformed_code_with_the_other_fields_errors(client):
    make_table("DLX1")
    url = reverse("tables:table_create")
    taken = client.post(url, {"code": "DLX1", "name": "", "game": "deluxe", "currency": "EUR", "studio": ""})
    assert_every_error_shown(taken, {"code", "name", "studio"})
    assert "The code DLX1 is already taken." in taken.context["form"].errors["code"]
    malformed = client.post(url, {"code": "bad code", "name": "", "game": "roulette", "currency": "EUR"})
    assert_every_error_shown(malformed, {"code", "name", "game", "studio"})


def test_the_new_player_page_shows_a_taken_id_with_the_other_fields_errors(client):
    player_create(external_id="P1", currency="EUR")
    data = {"external_id": "P1", "currency": "BTC", "account_type": "real", "status": "gone"}
    response = client.post(reverse("limits:player_create"), data)
    assert_every_error_shown(response, {"external_id", "currency", "status"})
    assert "Player P1 already exists." in response.context["form"].errors["external_id"]
