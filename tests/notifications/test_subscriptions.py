"""A user's subscription: their role's default until they save their own; what is refused."""

import pytest
from django.core.exceptions import ValidationError

from accounts.roles import COMPLIANCE, CUSTOMER_SERVICE
from accounts.services import user_create
from alerts.choices import Monitor, Severity
from notifications.services import subscription_of, subscription_save
from tests.second_factor_support import enrolled_if_required

pytestmark = pytest.mark.django_db


def test_the_default_is_the_roles_and_a_saved_one_replaces_it():
    cora = enrolled_if_required(
        user_create(username="cora", password="pw-cora", role=COMPLIANCE, email="cora@casino.example")
    )
    default = subscription_of(cora)
    assert default.pk is None and default.by_email
    assert set(default.monitors) == {Monitor.RTP_DRIFT, Monitor.BIG_WIN}
    assert default.severity == Severity.WARNING
    # No monitor of their own: nothing by email (empty monitors would mean every one).
    clerk = enrolled_if_required(user_create(username="cs", password="pw-cs", role=CUSTOMER_SERVICE))
    assert not subscription_of(clerk).by_email
    saved = subscription_save(
        user=cora, by_email=True, email="", monitors=["big_win"], tables=[], severity=Severity.CRITICAL
    )
    assert subscription_of(cora) == saved and saved.monitors == ["big_win"]


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"monitors": ["big_win", "nope"]}, "monitors"),
        ({"email": "not an address"}, "email"),
        ({"severity": 7}, "severity"),
    ],
)
def test_a_subscription_is_checked(changes, field):
    cora = enrolled_if_required(
        user_create(username="cora", password="pw-cora", role=COMPLIANCE, email="cora@casino.example")
    )
    values = {"by_email": True, "email": "", "monitors": [], "tables": [], "severity": Severity.WARNING}
    with pytest.raises(ValidationError) as refused:
        subscription_save(user=cora, **(values | changes))
    assert field in refused.value.message_dict


def test_by_email_needs_an_address():
    clerk = enrolled_if_required(user_create(username="cs", password="pw-cs", role=CUSTOMER_SERVICE))
    with pytest.raises(ValidationError) as refused:
        subscription_save(user=clerk, by_email=True, email="", monitors=[], tables=[], severity=1)
    assert "email" in refused.value.message_dict
    assert subscription_save(user=clerk, by_email=False, email="", monitors=[], tables=[], severity=1).pk
