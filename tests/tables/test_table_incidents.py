"""A table with an open incident is never shown as just "Open": the tables list and the table page show
the incident beside the status, with a link to it."""

import pytest
from django.urls import reverse

from rounds.services import incident_open
from tables.services import table_set_status
from tests.factories import table, user

pytestmark = pytest.mark.django_db


@pytest.fixture
def incident():
    dlx = table("DLX1")
    table("CLS1")
    supervisor = user("supervisor")
    table_set_status(table=dlx, status="open", changed_by=user("supervisor"), reason="Shift start")
    return incident_open(table=dlx, kind="network_failure", opened_by=supervisor, note="Stream froze")


def test_the_tables_list_shows_the_open_incident_with_a_link(client, incident):
    client.force_login(user("compliance"))
    html = client.get(reverse("tables:table_list")).content.decode()
    link = reverse("rounds:incident_detail", args=[incident.pk])
    assert f'href="{link}"' in html
    assert f"Incident {incident.pk} open: network failure" in html
    assert html.count("table-alert") == 1  # CLS1 has none


def test_the_table_page_shows_the_open_incident_with_a_link(client, incident):
    client.force_login(user("supervisor"))
    html = client.get(reverse("tables:table_detail", args=["DLX1"])).content.decode()
    assert f'href="{reverse("rounds:incident_detail", args=[incident.pk])}"' in html
    assert f"Incident {incident.pk} open: network failure" in html
    assert " open: " not in client.get(reverse("tables:table_detail", args=["CLS1"])).content.decode()


def test_the_csv_export_names_the_incident_too(client, incident):
    client.force_login(user("supervisor"))
    text = client.get(reverse("tables:table_list"), {"_export": "csv"}).getvalue().decode()
    assert f"Incident {incident.pk} open: network failure" in text


def test_the_list_reads_the_incidents_in_its_own_query(client, incident, django_assert_max_num_queries):
    for code in ("DLX2", "DLX3", "DLX4"):
        incident_open(table=table(code, game="deluxe"), kind="other", opened_by=user("supervisor"), note="x")
    client.force_login(user("compliance"))
    client.get(reverse("tables:table_list"))  # warm: the session and permissions
    with django_assert_max_num_queries(8):
        html = client.get(reverse("tables:table_list")).content.decode()
    assert html.count("table-alert") == 4
