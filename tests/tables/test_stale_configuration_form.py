"""A configuration form opened before another supervisor's change is refused, never saved over it."""

import pytest
from django.test import Client
from django.urls import reverse

from tables.models import TableConfiguration
from tests.factories import user
from tests.tables.test_pages import configuration_form, make_table

pytestmark = pytest.mark.django_db


def test_a_second_supervisors_stale_form_is_refused_and_reverts_nothing():
    make_table("CLS1", game="classic")
    first, second = Client(), Client()
    first.force_login(user("supervisor", "ana"))
    second.force_login(user("supervisor", "ben"))
    url = reverse("tables:configuration_change", args=["CLS1"])
    first_form = configuration_form(first, perfect_pairs__mixed_pair="7", reason="March sheet")
    second_form = configuration_form(
        second, auto_play="hit_to_12", reason="Faster rounds"
    )  # opened meanwhile

    assert first.post(url, first_form).status_code == 302
    response = second.post(url, second_form)

    assert response.status_code == 200
    assert "since you opened" in response.content.decode()
    latest = TableConfiguration.objects.filter(table__code="CLS1").latest("version")
    assert latest.version == 2  # nothing stored for the stale form
    assert latest.rules["side_options"]["perfect_pairs"]["paytable"]["mixed_pair"] == "7"
    assert latest.rules["auto_play"] == "stand"
