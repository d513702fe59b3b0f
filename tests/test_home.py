"""The home page needs a login and shows each role's work queues; the login page and the stylesheet are
served by the app."""

from datetime import timedelta

import pytest
from django.contrib.auth.models import Group
from django.contrib.staticfiles import finders
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from accounts.roles import COMPLIANCE
from reports.models import ReportRun
from rounds import services
from rounds.models import Finding
from tables.models import Table
from tables.services import configuration_propose
from tests.fixtures import round_document
from tests.rounds.corrections_support import demo_user, ingest, renamed, second_supervisor, wrongly_paid


def test_the_home_page_sends_anonymous_visitors_to_the_login_page(client):
    response = client.get("/")
    assert response.status_code == 302
    assert response["Location"] == "/accounts/login/?next=/"


@pytest.mark.django_db
def test_the_login_page_renders_with_the_local_stylesheet(client):
    response = client.get(reverse("login"))
    assert response.status_code == 200
    html = response.content.decode()
    assert 'name="login"' in html
    assert "/static/css/pitboss.css" in html
    assert "http://" not in html and "https://" not in html


@pytest.mark.django_db
def test_the_home_page_greets_a_signed_in_user(client, django_user_model):
    user = django_user_model.objects.create_user(username="supervisor", password="pw-for-tests-only")
    client.force_login(user)
    response = client.get("/")
    assert response.status_code == 200
    assert b"supervisor" in response.content


@pytest.mark.django_db
def test_a_user_logs_in_and_lands_on_the_home_page(client, django_user_model):
    django_user_model.objects.create_user(username="compliance", password="pw-for-tests-only")
    response = client.post(reverse("login"), {"login": "compliance", "password": "pw-for-tests-only"})
    assert response.status_code == 302
    assert response["Location"] == reverse("home")


@pytest.mark.django_db
def test_pages_forbid_loading_from_other_origins(client):
    response = client.get(reverse("login"))
    assert "default-src 'self'" in response["Content-Security-Policy"]


def test_the_stylesheet_is_a_local_static_file():
    assert finders.find("css/pitboss.css") is not None


# --- each role's work queue (portal.queues) -----------------------------------------------------

DAY = "2026-11-28"  # the day the fixture rounds were played (tests/fixtures/README.md)


def breach_now(suffix: str = "-B"):
    """The Deluxe fixture round played an hour ago by a player whose own limit (10.00) its 15.00 main
    bet breaches."""
    document = renamed(round_document("deluxe-split-double-play-behind"), suffix)
    played = timezone.now() - timedelta(hours=1)
    document["opened_at"] = played.strftime("%Y-%m-%dT%H:%M:%SZ")
    document["closed_at"] = (played + timedelta(minutes=1)).strftime("%Y-%m-%dT%H:%M:%SZ")
    for part in document["spots"] + document["bets"]:
        part["player"] = "PDLX10002"
    return ingest(document)


@pytest.fixture
def work(db):
    """Something in every queue: two wrongly paid rounds of DLX1 (findings, not reviewed), one
    proposed for re-settlement by compliance, the other for a void by a second supervisor; an open
    incident pausing CLS1; a configuration proposal at BND1; a run of the daily job today made stale
    by an approved re-settlement; a limit breach an hour ago."""
    call_command("seed_demo", verbosity=0)
    supervisor, compliance = demo_user("supervisor"), demo_user("compliance")
    resettled = wrongly_paid("-R")
    run = ReportRun.objects.create(
        day=DAY, trigger="command", time_zone="Europe/Malta", cutoff="06:00", status="succeeded"
    )
    services.resettlement_approve(
        resettlement=services.resettlement_propose(round_=resettled, proposed_by=compliance, reason="short"),
        decided_by=supervisor,
        comment="Checked the video.",
    )
    services.resettlement_propose(round_=wrongly_paid(), proposed_by=compliance, reason="paid short")
    services.void_propose(round_=wrongly_paid("-V"), proposed_by=second_supervisor(), reason="shuffler")
    services.incident_open(
        table=Table.objects.get(code="CLS1"), kind="malfunction", opened_by=supervisor, note="shuffler jammed"
    )
    configuration_propose(
        table=Table.objects.get(code="DLX1"),
        changes={"seats": 6},
        proposed_by=second_supervisor(),
        reason="x",
    )
    breach_now()
    return run


def queues(client, username: str) -> dict:
    client.force_login(demo_user(username))
    response = client.get(reverse("home"))
    assert response.status_code == 200
    return {queue.key: queue for queue in response.context["queues"]}


def test_a_supervisor_sees_incidents_paused_tables_and_proposals_to_decide(client, work):
    shown = queues(client, "supervisor")
    assert list(shown) == [
        "alerts-supervisor",
        "incidents",
        "paused",
        "resettlements",
        "voids",
        "configurations",
        "runs",
        "stale",
    ]
    counts = {key: queue.count for key, queue in shown.items()}
    assert counts == {
        "alerts-supervisor": 0,
        "incidents": 1,
        "paused": 1,
        "resettlements": 1,
        "voids": 1,
        "configurations": 1,
        "runs": 1,
        "stale": 1,
    }
    assert shown["incidents"].url == "/rounds/incidents/?status=open"
    assert [item.label for item in shown["paused"].items] == ["CLS1"]
    assert shown["paused"].url == "/tables/?status=paused"
    (resettlement,) = shown["resettlements"].items
    assert resettlement.note == "proposed by compliance" and "DLX1-S0412-023" in resettlement.label
    assert shown["resettlements"].url == "/rounds/resettlements/?status=proposed"
    assert shown["voids"].items[0].note == "proposed by supervisor-2"
    assert shown["configurations"].items[0].url == "/tables/DLX1/proposal/"
    assert shown["stale"].items[0].url == f"/reports/daily/?day={DAY}"
    html = client.get(reverse("home")).content.decode()
    assert 'href="/rounds/voids/?status=proposed"><strong>1</strong>' in html
    assert "proposed by supervisor-2" in html


def test_compliance_sees_the_rounds_to_review_by_table_and_day(client, work):
    shown = queues(client, "compliance")
    assert list(shown) == [
        "alerts-compliance",
        "thresholds",
        "published-above",
        "guardrail",
        "review",
        "runs",
        "stale",
        "sign",
        "break-glass",
    ]
    # The day's run, not signed off yet: a report to sign, its run's page.
    assert shown["sign"].title == "Reports to sign" and shown["sign"].count == 1
    assert shown["sign"].items[0].url == f"/reports/runs/{work.pk}/"
    review = shown["review"]
    # The two rounds still wrongly paid and one re-settled: none signed off (a breach's round too).
    pending = "finding_class=money&finding_class=dealer&finding_class=other&reviewed=false"
    assert review.url == f"/rounds/?{pending}"
    by_day = {item.label: item for item in review.items}
    dlx = by_day[f"DLX1 · {DAY}"]
    assert dlx.count == 3
    assert dlx.url == f"/rounds/?table=DLX1&day={DAY}&{pending}"
    assert review.count == sum(item.count for item in review.items)
    listed = client.get(dlx.url).content.decode()
    assert all(f"DLX1-S0412-023{suffix}" in listed for suffix in ("-W", "-V", "-R"))


def test_customer_service_sees_the_players_with_recent_limit_breaches(client, work):
    shown = queues(client, "customer-service")
    assert list(shown) == ["breaches"]
    (player,) = shown["breaches"].items
    breaches = Finding.objects.filter(code="limit_breached", bet__player__external_id="PDLX10002").count()
    assert breaches > 0
    assert (player.label, player.count, player.url) == ("PDLX10002", breaches, "/limits/players/PDLX10002/")
    assert client.get(player.url).status_code == 200


def test_an_administrator_sees_the_account_changes_another_administrator_asked_for(client, work):
    """The demo's analyst, asked for by `administrator`, waits for `administrator-2`: it is in the
    second's queue, and not in the first's (who cannot approve their own request)."""
    (change,) = queues(client, "administrator-2")["account-changes"].items
    assert change.label == "analyst · Account created · Compliance"
    assert change.note == "asked by administrator"
    assert client.get(change.url).status_code == 200
    assert queues(client, "administrator")["account-changes"].count == 0
    assert list(queues(client, "administrator")) == ["account-changes"]  # nothing of the tables
    html = client.get(reverse("home")).content.decode()
    cards = ('href="/staff/users/"', 'href="/staff/changes/"', 'href="/staff/sign-ins/"')
    assert all(f'class="card link-card" {card}' in html for card in cards)
    assert "no role yet" not in html


def test_compliance_sees_each_break_glass_sign_in_until_reviewed(client, work):
    from accounts.models import SignInEvent
    from accounts.sign_in_record import break_glass_review

    administrator = demo_user("administrator")
    glass = SignInEvent.objects.create(
        at=timezone.now(),
        day=timezone.now().date(),
        kind=SignInEvent.Kind.SUCCESS,
        username=administrator.username,
        user=administrator,
        address="192.0.2.7",
        method=SignInEvent.Method.PASSWORD,
        break_glass=True,
        provider_answered=True,
    )
    queue = queues(client, "compliance")["break-glass"]
    (item,) = queue.items
    assert (item.label, item.note) == ("administrator from 192.0.2.7", "the provider answered")
    assert item.url == f"/staff/sign-ins/{glass.pk}/review/"
    assert queue.url == "/staff/sign-ins/?break_glass=unreviewed"
    assert client.get(item.url).status_code == 200
    break_glass_review(event=glass, by=demo_user("compliance"), note="Provider maintenance window, ticket 88")
    assert queues(client, "compliance")["break-glass"].count == 0
    assert "break-glass" not in queues(client, "supervisor")


def test_a_user_with_two_roles_sees_the_queues_of_both(client, work):
    supervisor = demo_user("supervisor")
    supervisor.groups.add(Group.objects.get(name=COMPLIANCE))
    assert "review" in queues(client, "supervisor") and "incidents" in queues(client, "supervisor")


def test_each_queue_is_one_query_however_much_it_holds(client, work, django_assert_max_num_queries):
    client.force_login(demo_user("supervisor"))
    client.get(reverse("home"))  # the permissions cached in the session's first request
    with django_assert_max_num_queries(4 + 7) as few:
        client.get(reverse("home"))
    for suffix in ("-X", "-Y", "-Z"):
        services.void_propose(round_=wrongly_paid(suffix), proposed_by=second_supervisor(), reason="again")
    with django_assert_max_num_queries(len(few.captured_queries)):
        client.get(reverse("home"))


def test_a_round_whose_only_findings_are_limit_breaches_is_customer_services_not_compliances(client, work):
    # The Deluxe fixture with seat 2's player (15.00 on the main bet) the one whose own limit is 10.00.
    document = renamed(round_document("deluxe-split-double-play-behind"), "-L")
    for part in document["spots"] + document["bets"]:
        if part["player"] == "P7101":
            part["player"] = "PDLX10002"
    breached = ingest(document)
    assert set(breached.findings.values_list("code", flat=True)) == {"limit_breached"}
    review = queues(client, "compliance")["review"]
    listed = client.get(review.url).content.decode()
    assert "DLX1-S0412-023-W" in listed and "DLX1-S0412-023-L" not in listed
    assert [item.label for item in queues(client, "customer-service")["breaches"].items] == ["PDLX10002"]
    # The list's filter by class finds it among the limit breaches.
    client.force_login(demo_user("compliance"))
    assert "DLX1-S0412-023-L" in client.get("/rounds/?finding_class=limit").content.decode()
