"""Out-of-range query values answer a 400 or an empty result, never a 500 (issue 16: a probe of the
running server got a 500 for each). The NUL kind failed on PostgreSQL before its fix; the calendar's
edge days and the step-less incident POST already answered without a 500 here, and stay as guards."""

import pytest
from django.urls import reverse

from tests.factories import player, table, user

pytestmark = pytest.mark.django_db


@pytest.fixture
def compliance(client):
    table("DLX1")
    player("P1001")
    client.force_login(user("compliance"))
    return client


@pytest.mark.parametrize("route", ["reports:daily_report", "reports:exposure_report"])
@pytest.mark.parametrize("day", ["9999-12-31", "0001-01-01"])
def test_a_report_for_a_day_at_the_calendars_edge_is_not_a_500(compliance, route, day):
    response = compliance.get(reverse(route), {"day": day})
    assert response.status_code in (200, 400), response.status_code
    if response.status_code == 400:
        assert b"day" in response.content


@pytest.mark.parametrize("first, last", [("9999-12-31", "9999-12-31"), ("0001-01-01", "0001-01-01")])
def test_a_play_record_at_the_calendars_edge_is_not_a_500(compliance, first, last):
    url = reverse("rounds:play_record", args=["P1001"])
    response = compliance.get(url, {"first": first, "last": last})
    assert response.status_code in (200, 400), response.status_code


def test_a_nul_in_the_table_limit_forms_kind_is_not_a_500(client):
    table("DLX1")
    client.force_login(user("supervisor"))
    response = client.get(reverse("limits:table_limit_set", args=["DLX1"]), {"kind": "\x00"})
    assert response.status_code in (200, 400), response.status_code


def test_a_post_to_an_incident_page_without_a_step_is_refused_not_a_500(client):
    from rounds.services import incident_open

    dlx = table("DLX1")
    supervisor = user("supervisor")
    incident = incident_open(table=dlx, kind="other", opened_by=supervisor, note="probe")
    client.force_login(supervisor)
    response = client.post(reverse("rounds:incident_detail", args=[incident.pk]), {})
    assert response.status_code in (400, 405), response.status_code


LISTS = ["tables:table_list", "limits:player_list", "rounds:incident_list", "reports:run_list"]


@pytest.mark.parametrize("route", LISTS)
@pytest.mark.parametrize("export", ["xls", "ods", "json"])
def test_an_export_format_the_lists_do_not_offer_shows_the_page(compliance, route, export):
    """Found by tests/test_page_query_fuzz.py: django-tables2 exported any format tablib names, and
    xls and ods need libraries that are not installed (a 500). Only CSV and XLSX are offered."""
    response = compliance.get(reverse(route), {"_export": export})
    assert response.status_code == 200, response.status_code
    assert response["Content-Type"].startswith("text/html"), response["Content-Type"]


def test_the_round_list_with_an_export_format_it_does_not_offer_shows_one_page(compliance, monkeypatch):
    """The round list took any `?_export=` value for an export, so the page listed every round."""
    from rounds.ingest import round_ingest
    from rounds.views import RoundListView
    from tests.fixtures import round_document

    table("CLS1")
    round_ingest(document=round_document("classic-perfect-pairs-21-plus-3-behind"))
    round_ingest(document=round_document("classic-network-failure-refunds"))
    monkeypatch.setattr(RoundListView, "per_page", 1)
    response = compliance.get(reverse("rounds:round_list"), {"_export": "ods"})
    assert response.status_code == 200, response.status_code
    assert len(response.context["table"].rows) == 1


@pytest.mark.parametrize("route", LISTS)
@pytest.mark.parametrize("per_page", ["-1", "-50", "0"])
def test_a_page_size_below_one_is_not_a_500(compliance, route, per_page):
    """Found by tests/test_page_query_fuzz.py: django-tables2 takes `?per_page=` as given, and a
    negative one made a negative number of pages (a 500)."""
    response = compliance.get(reverse(route), {"per_page": per_page})
    assert response.status_code == 200, response.status_code


def test_a_page_holds_at_most_the_lists_page_size_whatever_per_page_asks(compliance):
    from core.listing import PAGE_SIZE
    from limits.models import Player

    for number in range(PAGE_SIZE + 1):
        player(f"Q{number:04d}")
    assert Player.objects.count() > PAGE_SIZE
    response = compliance.get(reverse("limits:player_list"), {"per_page": "100000"})
    assert response.status_code == 200, response.status_code
    assert len(response.context["table"].page.object_list) == PAGE_SIZE


@pytest.mark.parametrize("page", [str(2**62), str(2**63), "1" + "0" * 20])
def test_a_page_number_past_any_the_database_can_skip_to_is_not_a_500(compliance, page):
    """Found by tests/test_page_query_fuzz.py: the table list pages without a COUNT, so it asked the
    database to skip (page - 1) × 50 rows, past a 64-bit integer (a 500: "datatype mismatch" on
    SQLite). It shows the first page, as for a page past the last rows."""
    response = compliance.get(reverse("tables:table_list"), {"page": page})
    assert response.status_code == 200, response.status_code
    assert response.context["table"].page.number == 1


@pytest.mark.parametrize("cursor", ["before", "after"])
@pytest.mark.parametrize(
    "moment", ["0001-01-01T00:00:00+01:00", "0001-01-01T00:00:00+23:59", "9999-12-31T23:59:59-23:59"]
)
def test_a_play_record_cursor_at_a_moment_outside_the_calendar_in_utc_is_not_a_500(
    compliance, cursor, moment
):
    """Found while writing tests/test_page_query_fuzz.py: the play record's ?before= and ?after= were
    handed to the database with their offset, a moment that is no date in UTC (a 500 on SQLite) or
    an offset PostgreSQL does not take (+23:59: a 500 there). The cursor is ignored: the newest page."""
    url = reverse("rounds:play_record", args=["P1001"])
    response = compliance.get(url, {cursor: f"{moment}_1"})
    assert response.status_code == 200, response.status_code


@pytest.mark.parametrize("last", ["0001-01-01", "0001-01-29"])
def test_a_play_record_ending_in_the_calendars_first_month_is_not_a_500(compliance, last):
    """Found by tests/test_page_query_fuzz.py: without ?first=, the period is the 30 days to ?last=,
    and 29 days before 0001-01-29 is no date (a 500). The period starts on the calendar's first day."""
    response = compliance.get(reverse("rounds:play_record", args=["P1001"]), {"last": last})
    assert response.status_code == 200, response.status_code
    assert response.context["first"].isoformat() == "0001-01-01"


@pytest.mark.parametrize("route", ["reports:daily_report", "reports:exposure_report"])
@pytest.mark.parametrize("run", ["²", "①"])
def test_a_run_number_in_other_digits_than_ascii_is_not_a_500(compliance, route, run):
    """Found while writing tests/test_page_query_fuzz.py: `?run=` was read when str.isdigit() held,
    which it does for '²' and '①' too, and int() refuses them (a 500). Only ASCII digits name a run;
    the filter refuses another (a 400 naming `run`, as every refused filter: tests/test_invalid_filter.py)."""
    response = compliance.get(reverse(route), {"run": run})
    assert response.status_code == 400, response.status_code
    assert "run" in response.context["filter"].form.errors
    assert response.context["report_run"] is None


@pytest.mark.parametrize("version", ["²", "①", "١"])
def test_a_configuration_version_in_other_digits_than_ascii_is_not_found(client, version):
    """Found while writing tests/test_page_query_fuzz.py: `?version=²` passed str.isdigit(), and int()
    refused it (a 500); '١' (Arabic-Indic one) named version 1. Only ASCII digits name a version."""
    table("DLX1")
    client.force_login(user("supervisor"))
    response = client.get(reverse("tables:configuration_proposal", args=["DLX1"]), {"version": version})
    assert response.status_code == 404, response.status_code


@pytest.mark.parametrize(
    "route, role", [("rounds:resettlement_propose", "compliance"), ("rounds:void_propose", "supervisor")]
)
@pytest.mark.parametrize("method", ["get", "post"])
def test_a_nul_in_the_round_id_of_a_proposal_form_is_not_a_500(client, route, role, method):
    """Found by tests/test_page_query_fuzz.py on PostgreSQL (which refuses NUL in text): the
    re-settlement and void forms looked up `?round=` (or the posted round) as given. No round has
    such an id: the form asks for one."""
    table("DLX1")
    client.force_login(user(role))
    response = getattr(client, method)(reverse(route), {"round": "R1\x00"})
    assert response.status_code in (200, 400), response.status_code
    assert response.context["form"]["round"].value() == "R1\x00"
