"""The silences' and thresholds' pages: silence a table and end it early (supervisors); propose a
threshold, less sensitive ones waiting for compliance, who approves or refuses them; every refusal
of the services shown on the page."""

from decimal import Decimal

import pytest
from django.contrib.auth.models import Group
from django.urls import reverse

from accounts.roles import COMPLIANCE
from alerts.choices import ThresholdStatus
from alerts.models import Silence, Threshold
from alerts.services import silenced
from alerts.thresholds import threshold_in_force
from tests.alerts.pages_support import CS, C, S, csv_rows, html_of, signed_in, tables
from tests.factories import user

pytestmark = pytest.mark.django_db

__all__ = ["tables"]


# --- silences ----------------------------------------------------------------------------------------


def silence_data(**values) -> dict:
    data = {"table": "DLX1", "monitor": "", "minutes": "45", "reason": "Camera maintenance"} | values
    return {f"silence-{name}": value for name, value in data.items()}


def test_a_supervisor_silences_a_table_and_ends_it_early(client, tables):
    client = signed_in(client, S)
    response = client.post(reverse("alerts:silence_add"), silence_data())
    assert response.status_code == 302 and response["Location"] == reverse("alerts:silence_list")
    silence = Silence.objects.get()
    assert silence.monitor == "" and silence.created_by == user(S)
    assert silenced(tables["DLX1"].pk, "silent_table") and not silenced(tables["CLS1"].pk, "silent_table")
    html = html_of(client.get(reverse("alerts:silence_list")))
    assert "Every monitor silenced at DLX1 until" in html
    assert "All monitors" in html and 'class="badge badge-in-force">In force' in html
    assert f'formaction="/alerts/silences/{silence.pk}/end/"' in html

    assert client.post(reverse("alerts:silence_end", args=[silence.pk])).status_code == 302
    silence.refresh_from_db()
    assert silence.ended_by == user(S) and not silenced(tables["DLX1"].pk, "silent_table")
    html = html_of(client.get(reverse("alerts:silence_list")))
    assert "Ended early" in html and "formaction" not in html

    response = client.post(reverse("alerts:silence_end", args=[silence.pk]))
    assert response.status_code == 409 and "This silence has ended already." in html_of(response)


def test_a_silence_of_one_monitor_and_the_services_refusals(client, tables):
    client = signed_in(client, S)
    response = client.post(reverse("alerts:silence_add"), silence_data(minutes="1441"))
    assert response.status_code == 400
    html = html_of(response)
    assert "A silence lasts from 1 minute to 24 hours." in html
    assert html.index("24 hours.") > html.index('name="silence-minutes"')  # beside its field
    assert "Camera maintenance</textarea>" in html  # what was typed, kept
    response = client.post(reverse("alerts:silence_add"), silence_data(reason=""))
    assert response.status_code == 400 and "Say why" in html_of(response)
    assert not Silence.objects.exists()
    client.post(reverse("alerts:silence_add"), silence_data(monitor="dealer_findings", table="CLS1"))
    assert silenced(tables["CLS1"].pk, "dealer_findings") and not silenced(tables["CLS1"].pk, "big_win")


def test_compliance_reads_silences_and_changes_none(client, tables):
    signed_in(client, S).post(reverse("alerts:silence_add"), silence_data())
    client = signed_in(client, C)
    html = html_of(client.get(reverse("alerts:silence_list")))
    assert "Camera maintenance" in html and 'id="silence-add"' not in html and "formaction" not in html
    assert client.post(reverse("alerts:silence_add"), silence_data()).status_code == 403
    silence = Silence.objects.get()
    assert client.post(reverse("alerts:silence_end", args=[silence.pk])).status_code == 403
    assert signed_in(client, CS).get(reverse("alerts:silence_list")).status_code == 403


def test_the_silences_filter_and_export(client, tables):
    client = signed_in(client, S)
    client.post(reverse("alerts:silence_add"), silence_data())
    client.post(reverse("alerts:silence_add"), silence_data(table="CLS1", monitor="big_win"))
    client.post(reverse("alerts:silence_end", args=[Silence.objects.get(table__code="CLS1").pk]))
    rows = csv_rows(client.get(reverse("alerts:silence_list"), {"state": "in_force", "_export": "csv"}))
    header, *rows = rows
    assert header[:3] == ["Table", "Monitor", "State"] and "" not in header  # no "End now" column
    assert [row[:3] for row in rows] == [["DLX1", "All monitors", "In force"]]
    rows = csv_rows(client.get(reverse("alerts:silence_list"), {"monitor": "big_win", "_export": "csv"}))[1:]
    assert [row[:3] for row in rows] == [
        ["CLS1", "Win above amount", "Ended early"],
        ["DLX1", "All monitors", "In force"],
    ]


# --- thresholds --------------------------------------------------------------------------------------


def proposal(**values) -> dict:
    data = {
        "monitor": "big_win",
        "game": "deluxe",
        "table": "",
        "value": "20000",
        "reason": "High rollers",
    } | values
    return {f"propose-{name}": value for name, value in data.items()}


def test_a_less_sensitive_threshold_waits_for_compliance_who_approves_it(client, tables):
    supervisor = signed_in(client, S)
    html = html_of(supervisor.get(reverse("alerts:threshold_list")))
    assert "A higher value makes it less sensitive: it waits for a compliance officer" in html  # said first
    response = supervisor.post(reverse("alerts:threshold_propose"), proposal())
    assert response.status_code == 302
    change = Threshold.objects.get()
    assert change.status == ThresholdStatus.PENDING and change.previous == Decimal(10000)
    html = html_of(supervisor.get(reverse("alerts:threshold_list")))
    assert "is less sensitive and awaits a compliance officer&#x27;s approval" in html
    assert "10,000 → <strong>20,000</strong>" in html
    assert f'action="/alerts/thresholds/{change.pk}/approve/"' not in html  # a supervisor does not decide
    assert threshold_in_force("big_win", table=tables["DLX1"]) == Decimal(10000)

    assert supervisor.post(reverse("alerts:threshold_approve", args=[change.pk])).status_code == 403

    compliance = signed_in(client, C)
    html = html_of(compliance.get(reverse("alerts:threshold_list")))
    assert f'action="/alerts/thresholds/{change.pk}/approve/"' in html
    response = compliance.post(reverse("alerts:threshold_approve", args=[change.pk]), {"note": "Agreed."})
    assert response.status_code == 302
    change.refresh_from_db()
    assert change.status == ThresholdStatus.IN_FORCE and change.decided_by == user(C)
    assert threshold_in_force("big_win", table=tables["DLX1"]) == Decimal(20000)
    html = html_of(compliance.get(reverse("alerts:threshold_list")))
    assert "Approved: Win above amount 10,000 → 20,000 is in force." in html
    assert "No change awaits a decision." in html
    assert '20,000</span> <span class="badge badge-in-force">set</span>' in html  # Deluxe's, in force


def test_a_more_sensitive_threshold_is_in_force_at_once(client, tables):
    client = signed_in(client, S)
    client.post(
        reverse("alerts:threshold_propose"),
        proposal(monitor="silent_table", game="", table="DLX1", value="5"),
    )
    change = Threshold.objects.get()
    assert change.status == ThresholdStatus.IN_FORCE and change.table == tables["DLX1"]
    html = html_of(client.get(reverse("alerts:threshold_list")))
    assert "Open but silent for DLX1: 10 → 5, in force now." in html
    assert "Tables with their own" in html and '<td class="number">5</td>' in html


def test_the_proposer_may_not_approve_their_own(client, tables):
    both = user(S, "supervisor-and-compliance")
    both.groups.add(Group.objects.get(name=COMPLIANCE))
    client.force_login(both)
    client.post(reverse("alerts:threshold_propose"), proposal())
    change = Threshold.objects.get()
    html = html_of(client.get(reverse("alerts:threshold_list")))
    assert "You proposed this change: another compliance officer decides it." in html
    response = client.post(reverse("alerts:threshold_approve", args=[change.pk]), {"note": "Mine."})
    assert response.status_code == 403
    assert "Someone else decides a change you proposed." in html_of(response)
    assert Threshold.objects.get().status == ThresholdStatus.PENDING


def test_refusing_needs_a_note_and_a_decision_is_made_once(client, tables):
    signed_in(client, S).post(reverse("alerts:threshold_propose"), proposal())
    change = Threshold.objects.get()
    client = signed_in(client, C)
    response = client.post(reverse("alerts:threshold_reject", args=[change.pk]), {"note": " "})
    assert response.status_code == 400
    html = html_of(response)
    assert "Say why the change is refused." in html
    assert html.index("Say why the change is refused.") > html.index(
        f'id="pending-{change.pk}"'
    )  # on its form
    assert Threshold.objects.get().status == ThresholdStatus.PENDING
    response = client.post(reverse("alerts:threshold_reject", args=[change.pk]), {"note": "Too high."})
    assert response.status_code == 302
    assert Threshold.objects.get().status == ThresholdStatus.REJECTED
    response = client.post(reverse("alerts:threshold_approve", args=[change.pk]), {"note": ""})
    assert response.status_code == 409 and "This change was decided already." in html_of(response)


def test_a_proposal_the_service_refuses_shows_why(client, tables):
    client = signed_in(client, S)
    url = reverse("alerts:threshold_propose")
    cases = [
        (proposal(value="0.5"), "At least 1 (net win of a player in a round (table currency))."),
        (proposal(value="10000"), "10000 is the threshold in force already."),
        (proposal(table="DLX1"), "Choose a table or a game, not both."),
        (proposal(value="1.005"), "At most 12 digits before the point and 2 after it."),
        (proposal(reason=""), "Say why"),
    ]
    for data, message in cases:
        response = client.post(url, data)
        assert response.status_code == 400, message
        assert message in html_of(response).replace("&#x27;", "'"), message
    client.post(url, proposal())
    response = client.post(url, proposal(value="30000"))
    assert response.status_code == 409
    assert "A change of this threshold already awaits compliance: decide it first." in html_of(response)
    assert Threshold.objects.count() == 1


def test_the_changes_filter_and_export(client, tables):
    client = signed_in(client, S)
    client.post(reverse("alerts:threshold_propose"), proposal())
    client.post(
        reverse("alerts:threshold_propose"),
        proposal(monitor="silent_table", game="", table="DLX1", value="5"),
    )
    header, *rows = csv_rows(
        client.get(reverse("alerts:threshold_list"), {"status": "pending", "_export": "csv"})
    )
    assert header[:6] == ["Monitor", "For", "Was", "Proposed", "Unit", "Status"]
    assert [row[:6] for row in rows] == [
        [
            "Win above amount",
            "deluxe",
            "10000.00",
            "20000.00",
            "net win of a player in a round (table currency)",
        ]
        + ["Awaiting compliance"]
    ]
    rows = csv_rows(client.get(reverse("alerts:threshold_list"), {"table": "DLX1", "_export": "csv"}))[1:]
    assert [row[:2] for row in rows] == [["Open but silent", "DLX1"]]
