"""The operator's published RTPs (issue 51): compliance enters them per version and bet kind with their
source; the latest entry is the figure of record; a version approved with a kind's computed RTP unchanged
carries the previous figure; the table's page, the list (filters, CSV), compliance's home queue for a
figure above the game's, and the API."""

import csv
import io
from datetime import date, timedelta
from decimal import Decimal

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils import timezone

from tables.models import PublishedRtp, TableConfiguration
from tables.odds import configuration_odds_compute
from tables.published import (
    figures_above_the_game,
    figures_of_record,
    published_rtp_enter,
    watched_configurations,
)
from tests.api_support import client_as
from tests.api_support import user as api_user
from tests.factories import configuration_approved, table, user

pytestmark = pytest.mark.django_db

PAGE = "/tables/DLX1/published-rtp/"
LIST = "/tables/published-rtp/"
API = "/api/published-rtps/"
COMPUTED_MAIN = Decimal("99.5169")  # DLX1's preset at best play (the known odds)
COMPUTED_PAIR = Decimal("97.1154")
LATER = "tomorrow"  # a date after today, worked out when the test runs


@pytest.fixture
def dlx():
    """DLX1 with its first version's odds worked out."""
    created = table("DLX1")
    configuration_odds_compute(configuration=version(1))
    return created


def version(number: int) -> TableConfiguration:
    return TableConfiguration.objects.get(table__code="DLX1", version=number)


def enter(kind="main", rtp="99.46", *, by=None, configuration=None, **fields) -> PublishedRtp:
    return published_rtp_enter(
        configuration=configuration or version(1),
        kind=kind,
        rtp=Decimal(rtp),
        source_document=fields.pop("source_document", "Game rules, edition 3"),
        source_url=fields.pop("source_url", "https://operator.example/rules"),
        published_on=fields.pop("published_on", date(2026, 1, 15)),
        entered_by=by or user("compliance"),
    )


def figure(configuration, kind):
    return next(line for line in figures_of_record(configuration) if line.kind == kind)


# --- the service ----------------------------------------------------------------------------------


def test_only_compliance_enters_a_figure(dlx):
    with pytest.raises(PermissionDenied):
        enter(by=user("supervisor"))
    assert not PublishedRtp.objects.exists()
    entry = enter()
    assert (entry.kind, entry.rtp, entry.entered_by.username) == ("main", Decimal("99.46"), "compliance-user")


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"kind": "perfect_pairs"}, "kind"),  # DLX1 offers Pair, not Perfect Pairs
        ({"published_on": LATER}, "published_on"),
        ({"rtp": "0"}, "rtp"),
        ({"rtp": "100.01"}, "rtp"),
        ({"source_document": ""}, "source_document"),
        ({"source_url": "not an address"}, "source_url"),
    ],
)
def test_a_bad_entry_is_refused_naming_the_field_and_stores_nothing(dlx, fields, field):
    if fields.get("published_on") == LATER:
        fields = {"published_on": timezone.localdate() + timedelta(days=1)}
    with pytest.raises(ValidationError) as refused:
        enter(**fields)
    assert field in refused.value.message_dict, refused.value.message_dict
    assert not PublishedRtp.objects.exists()


def test_the_later_entry_is_the_figure_of_record_and_the_sheet_never_states_more(dlx):
    enter(rtp="99.46")
    assert figure(version(1), "main").published.rtp == Decimal("99.46")
    assert figure(version(1), "main").stated == Decimal("99.46")
    enter(rtp="99.53", source_document="Game rules, edition 4")
    main = figure(version(1), "main")
    assert (main.published.rtp, main.published.source_document) == (Decimal("99.53"), "Game rules, edition 4")
    assert main.computed == COMPUTED_MAIN and main.above_the_game
    assert main.stated == Decimal("99.51")  # the computed maximum cut down, never 99.53 nor 99.52
    assert PublishedRtp.objects.count() == 2  # the earlier entry stays


def test_a_version_whose_kinds_rtp_is_unchanged_carries_the_figure(dlx):
    first = enter(rtp="99.46")
    enter("pair", "97.00")
    second = configuration_approved(dlx, {"seats": 5})
    carried = {entry.kind: entry for entry in second.published_rtps.all()}
    assert set(carried) == {"main", "pair"}
    assert carried["main"].rtp == Decimal("99.46") and carried["main"].carried_from == first
    assert carried["main"].source_document == first.source_document
    assert figure(second, "main").stated == Decimal("99.46")


def test_a_kind_whose_computed_rtp_changed_carries_nothing(dlx):
    enter(rtp="99.46")
    enter("pair", "97.00")
    second = configuration_approved(dlx, {"side_options": {"pair": {"paytable": {"mixed_pair": "6"}}}})
    assert figure(second, "pair").computed != COMPUTED_PAIR
    assert set(second.published_rtps.values_list("kind", flat=True)) == {"main"}  # only the unchanged kind
    assert figure(second, "pair").published is None


# --- the table's page -----------------------------------------------------------------------------


def test_compliance_sees_the_form_and_enters_a_figure(client, dlx):
    client.force_login(user("compliance"))
    page = client.get(PAGE)
    assert page.status_code == 200
    html = page.content.decode()
    assert 'id="enter-published"' in html and "Enter the figure" in html
    assert "99.5169 %" in html and "not entered" in html
    body = {
        "kind": "main",
        "rtp": "99.53",
        "source_document": "Game rules, edition 4",
        "source_url": "https://operator.example/rules",
        "published_on": "2026-01-15",
    }
    response = client.post(PAGE + "?version=1", body)
    assert response.status_code == 302 and response["Location"] == PAGE + "?version=1"
    entry = PublishedRtp.objects.get()
    assert (entry.rtp, entry.entered_by.username) == (Decimal("99.53"), "compliance-user")
    html = client.get(response["Location"]).content.decode()
    assert "above the game's</span>" in html
    assert 'href="https://operator.example/rules"' in html and "Game rules, edition 4" in html
    assert "99.51 %" in html  # what the sheet states


def test_a_refused_entry_names_the_field_and_stores_nothing(client, dlx):
    client.force_login(user("compliance"))
    later = (timezone.localdate() + timedelta(days=2)).isoformat()
    body = {"kind": "main", "rtp": "99.46", "source_document": "Rules", "published_on": later}
    response = client.post(PAGE, body)
    assert response.status_code == 400
    assert "published_on" in response.context["form"].errors
    assert "A document published later than today" in response.content.decode()
    response = client.post(PAGE, {**body, "rtp": "100.01"})
    assert response.status_code == 400
    assert {"rtp", "published_on"} <= set(response.context["form"].errors)  # each refusal at once
    assert not PublishedRtp.objects.exists()


def test_a_supervisor_sees_the_page_without_the_form_and_may_not_post(client, dlx):
    enter()
    client.force_login(user("supervisor"))
    page = client.get(PAGE)
    assert page.status_code == 200
    html = page.content.decode()
    assert "99.46 %" in html and 'id="enter-published"' not in html
    body = {"kind": "main", "rtp": "99.40", "source_document": "x", "published_on": "2026-01-15"}
    assert client.post(PAGE, body).status_code == 403
    assert PublishedRtp.objects.count() == 1


def test_customer_service_may_not_see_it(client, dlx):
    client.force_login(user("customer_service"))
    assert client.get(PAGE).status_code == 403
    assert client.get(LIST).status_code == 403


def test_the_page_shows_any_version_its_history_and_what_was_carried(client, dlx):
    enter(rtp="99.40")
    enter(rtp="99.46")
    configuration_approved(dlx, {"seats": 5})
    client.force_login(user("supervisor"))
    html = client.get(PAGE).content.decode()  # version 2, in force
    assert "carried from version 1" in html
    old = client.get(PAGE, {"version": 1}).content.decode()
    history = old[old.index('id="published-history"') :]
    assert history.index("99.46 %") < history.index("99.40 %")  # newest first
    assert client.get(PAGE, {"version": 9}).status_code == 404
    assert client.get(PAGE, {"version": "x"}).status_code == 404


def test_the_table_page_links_the_published_figures(client, dlx):
    client.force_login(user("compliance"))
    html = client.get("/tables/DLX1/").content.decode()
    assert f'href="{PAGE}?version=1">Published figures of version 1</a>' in html


# --- the list, the queue --------------------------------------------------------------------------


def test_the_list_filters_figures_above_the_game_and_exports_them(client, dlx):
    enter(rtp="99.53")
    enter("pair", "97.00")
    client.force_login(user("compliance"))
    everything = client.get(LIST)
    assert everything.status_code == 200
    assert len(everything.context["table"].rows) == 4  # main, play behind, insurance, pair
    above = client.get(LIST, {"above": "yes"})
    rows = above.context["table"].rows
    assert [(row.record.table.code, row.record.kind) for row in rows] == [("DLX1", "main")]
    assert f'href="{PAGE}?version=1"' in above.content.decode()
    below = client.get(LIST, {"above": "no", "kind": "pair"})
    assert [row.record.kind for row in below.context["table"].rows] == ["pair"]
    exported = client.get(LIST, {"above": "yes", "_export": "csv"})
    assert exported["Content-Type"].startswith("text/csv")
    header, *lines = list(csv.reader(io.StringIO(exported.getvalue().decode())))
    assert header[:5] == ["Table", "Version", "Bet kind", "Computed (maximum)", "Published"]
    assert lines == [
        ["DLX1", "1", "Main", "99.5169", "99.53", "Game rules, edition 3", "2026-01-15", "compliance-user"]
        + ["99.51", "yes"]
    ]
    assert client.get(LIST, {"above": "maybe"}).status_code == 400


@pytest.mark.parametrize("starts_later", [False, True])
def test_the_list_holds_the_version_in_force_and_those_approved_to_start_later(client, dlx, starts_later):
    valid_from = timezone.now() + timedelta(days=3) if starts_later else None
    configuration_approved(dlx, {"seats": 5}, valid_from=valid_from)
    watched = {1, 2} if starts_later else {2}
    assert set(watched_configurations().values_list("version", flat=True)) == watched
    client.force_login(user("supervisor"))
    rows = client.get(LIST).context["table"].rows
    assert {row.record.configuration.version for row in rows} == watched


def test_compliance_home_queue_shows_a_figure_above_the_games(client, dlx):
    enter(rtp="99.53")
    assert [figure.kind for figure in figures_above_the_game()] == ["main"]
    client.force_login(user("compliance"))
    queues = {queue.key: queue for queue in client.get("/").context["queues"]}
    queue = queues["published-above"]
    assert queue.count == 1 and queue.url == LIST + "?above=yes"
    (item,) = queue.items
    assert item.label == "DLX1 · version 1 · Main" and item.url == PAGE + "?version=1"
    client.force_login(user("supervisor"))
    assert "published-above" not in {queue.key for queue in client.get("/").context["queues"]}


def test_the_queue_is_one_query_and_leaves_out_a_figure_at_or_below(dlx, django_assert_num_queries):
    enter(rtp="99.46")
    with django_assert_num_queries(1):
        assert figures_above_the_game() == []


# --- the API --------------------------------------------------------------------------------------


def test_the_api_lists_and_filters_the_figures_of_record(dlx):
    enter(rtp="99.53")
    client = client_as("supervisor")
    listed = client.get(API).json()
    assert listed["count"] == 4
    main = next(row for row in listed["results"] if row["kind"] == "main")
    assert main["computed_rtp"] == "99.5169" and main["stated_rtp"] == "99.51" and main["above_the_game"]
    assert main["published"]["rtp"] == "99.53" and main["published"]["entered_by"] == "compliance-user"
    above = client.get(API, {"above": "yes"}).json()["results"]
    assert [(row["table"], row["kind"]) for row in above] == [("DLX1", "main")]
    assert client.get(API, {"kind": "pair", "table": "DLX1"}).json()["count"] == 1
    assert client.get(API, {"configuration": version(1).pk}).json()["count"] == 4
    refused = client.get(API, {"above": "maybe"})
    assert refused.status_code == 400 and "above" in refused.json()


def test_compliance_enters_a_figure_by_the_api(dlx):
    body = {
        "configuration": version(1).pk,
        "kind": "pair",
        "rtp": "97.00",
        "source_document": "Game rules, edition 3",
        "published_on": "2026-01-15",
    }
    response = client_as("compliance").post(API, body, format="json")
    assert response.status_code == 201, response.content
    answer = response.json()
    assert (answer["kind"], answer["rtp"], answer["table"], answer["version"]) == ("pair", "97.00", "DLX1", 1)
    assert answer["entered_by"] == api_user("compliance").username
    assert PublishedRtp.objects.get().source_url == ""


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"rtp": "100.01"}, "rtp"),
        ({"rtp": "0"}, "rtp"),
        ({"kind": "perfect_pairs"}, "kind"),
        ({"published_on": LATER}, "published_on"),
        ({"configuration": 2**40}, "configuration"),
        ({"source_document": ""}, "source_document"),
        ({"shade": "blue"}, "shade"),
    ],
)
def test_bad_input_is_a_400_naming_the_field_and_stores_nothing(dlx, change, field):
    body = {
        "configuration": version(1).pk,
        "kind": "main",
        "rtp": "99.46",
        "source_document": "Game rules",
        "published_on": "2026-01-15",
        **change,
    }
    if body["published_on"] == LATER:  # tomorrow when the test runs, not when it was collected
        body["published_on"] = (timezone.localdate() + timedelta(days=1)).isoformat()
    response = client_as("compliance").post(API, body, format="json")
    assert response.status_code == 400, response.content
    assert field in response.json(), response.json()
    assert not PublishedRtp.objects.exists()


@pytest.mark.parametrize("role", ["supervisor", "customer_service", "game_server"])
def test_other_roles_may_not_enter_by_the_api(dlx, role):
    body = {"configuration": version(1).pk, "kind": "main", "rtp": "99.46"}
    body |= {"source_document": "Game rules", "published_on": "2026-01-15"}
    response = client_as(role).post(API, body, format="json")
    assert response.status_code == 403 and response.json()["detail"]
    assert not PublishedRtp.objects.exists()
    if role != "supervisor":
        assert client_as(role).get(API).status_code == 403
