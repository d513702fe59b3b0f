"""Alerts by email, through a real SMTP server (aiosmtpd, its Maildir read back): who receives what
by role and by subscription, escalation to the newly reached, a test message."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from accounts.roles import COMPLIANCE, SUPERVISOR
from accounts.services import user_create
from alerts.choices import Monitor, Severity
from alerts.services import alert_raise, escalate_due
from limits.services import player_create
from notifications.choices import Channel, DeliveryStatus
from notifications.models import Delivery
from notifications.services import send_test, subscription_save
from tables.models import Table
from tests.factories import table
from tests.notifications.support import mail_settings, smtp_server, wait_for
from tests.second_factor_support import enrolled_if_required

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def smtp(tmp_path_factory):
    with smtp_server(tmp_path_factory.mktemp("smtp")) as server:
        yield server


@pytest.fixture(autouse=True)
def mail(settings, smtp):
    mail_settings(settings, smtp)
    smtp.clear()
    return smtp


@pytest.fixture
def people(db):
    def person(username, role, email="{}@casino.example", active=True):
        user = enrolled_if_required(
            user_create(username=username, password=f"pw-{username}", role=role, email=email.format(username))
        )
        if not active:
            user.is_active = False
            user.save(update_fields=["is_active"])
        return user

    table("CLS1"), table("DLX1")
    return {
        "sam": person("sam", SUPERVISOR),
        "sid": person("sid", SUPERVISOR),
        "sol": person("sol", SUPERVISOR, email=""),
        "sly": person("sly", SUPERVISOR, active=False),
        "cora": person("cora", COMPLIANCE),
    }


@pytest.fixture
def raised(django_capture_on_commit_callbacks):
    """alert_raise, and what its transaction's commit sends, sent (tasks run eagerly here)."""

    def raise_(code="CLS1", monitor=Monitor.INGEST_BEHIND, measure=150, threshold=120, **values):
        with django_capture_on_commit_callbacks(execute=True):
            return alert_raise(
                table=Table.objects.get(code=code),
                monitor=monitor,
                measure=Decimal(measure),
                threshold=Decimal(threshold),
                summary=values.pop("summary", f"Round R-9 arrived {measure} s after it ended."),
                figures=values.pop("figures", {"round": "R-9", "seconds": measure}),
                **values,
            )

    return raise_


def test_an_alert_raised_is_emailed_to_the_members_its_role_reaches(people, raised, mail):
    alert = raised()
    (message,) = wait_for(lambda: mail.to("sam@casino.example"))
    assert message["Subject"] == "[Pitboss] Warning · Ingest behind at CLS1"
    assert message["From"] == "pitboss@tests.example"
    body = message.get_content()
    assert f"https://pitboss.tests.example/alerts/{alert.pk}/" in body
    assert "Round R-9 arrived 150 s after it ended." in body
    assert "Measure:      150 (threshold 120)" in body
    assert "Occurrences:  1" in body and "seconds: 150" in body
    wait_for(lambda: mail.to("sid@casino.example"))
    # Compliance is not reached by a warning of this monitor; an inactive member and one without an
    # address get nothing.
    assert not Delivery.objects.filter(user__username__in=["cora", "sol", "sly"]).exists()
    assert len(mail.messages()) == 2
    assert set(Delivery.objects.values_list("status", "channel", "attempts")) == {
        (DeliveryStatus.SENT, Channel.EMAIL, 1)
    }


def test_a_message_names_a_player_by_id_only(people, raised, mail):
    player_create(external_id="P-4242", currency="EUR", display_name="Zebulon Quartermaine")
    raised(
        monitor=Monitor.BIG_WIN,
        measure=25000,
        threshold=10000,
        summary="Player P-4242 won 25,000.00 EUR net in round R-7 (threshold 10,000.00).",
        figures={"round": "R-7", "player": "P-4242", "net": "25000.00"},
    )
    # Critical (at least twice the threshold): supervisors and compliance both.
    (message,) = wait_for(lambda: mail.to("cora@casino.example"))
    assert message["Subject"] == "[Pitboss] Critical · Win above amount at CLS1"
    body = message.get_content()
    assert "P-4242" in body and "player: P-4242" in body
    assert "Zebulon" not in body and "Quartermaine" not in body


def test_a_subscription_replaces_the_role_default(people, raised, mail):
    cls1 = Table.objects.get(code="CLS1")
    # Cora: ingest behind at CLS1, critical only, to another address. Sid: nothing by email.
    subscription_save(
        user=people["cora"],
        by_email=True,
        email="cora.pager@casino.example",
        monitors=[Monitor.INGEST_BEHIND],
        tables=[cls1],
        severity=Severity.CRITICAL,
    )
    subscription_save(user=people["sid"], by_email=False, email="", monitors=[], tables=[], severity=1)
    raised(code="CLS1", measure=150)  # a warning
    wait_for(lambda: mail.to("sam@casino.example"))
    raised(code="DLX1", measure=300)  # critical, another table
    wait_for(lambda: len(mail.to("sam@casino.example")) == 2)
    raised(code="DLX1", monitor=Monitor.SILENT_TABLE, measure=30, threshold=10)  # another monitor
    wait_for(lambda: len(mail.to("sam@casino.example")) == 3)
    assert not mail.to("cora")
    assert not mail.to("sid@casino.example")
    raised(code="CLS1", monitor=Monitor.BIG_WIN, measure=30000, threshold=10000)
    raised(code="MPB1" if Table.objects.filter(code="MPB1").exists() else "CLS1", measure=400)
    (message,) = wait_for(lambda: mail.to("cora.pager@casino.example"))
    assert message["Subject"] == "[Pitboss] Critical · Ingest behind at CLS1"
    assert not mail.to("cora@casino.example")


def test_an_escalation_is_sent_to_those_it_newly_reaches(
    people, raised, mail, django_capture_on_commit_callbacks
):
    alert = raised()
    wait_for(lambda: len(mail.messages()) == 2)  # sam and sid
    mail.clear()
    with django_capture_on_commit_callbacks(execute=True):
        (escalated,) = escalate_due(timezone.now() + timedelta(minutes=16))
    assert escalated.pk == alert.pk and escalated.severity == Severity.CRITICAL
    (message,) = wait_for(lambda: mail.messages())
    assert message["To"] == "cora@casino.example"
    assert message["Subject"] == "[Pitboss] Critical · Ingest behind at CLS1 (escalated)"
    assert "escalated to critical: it now reaches you" in message.get_content()


def test_a_test_message(people, mail, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        (delivery,) = send_test(user=people["sam"])
    assert delivery.event is None
    (message,) = wait_for(lambda: mail.to("sam@casino.example"))
    assert message["Subject"] == "[Pitboss] Test message"
    assert "https://pitboss.tests.example/notifications/" in message.get_content()
    with pytest.raises(ValidationError) as refused:
        send_test(user=people["sol"])
    assert "email" in refused.value.message_dict
