"""A table's unresolved alerts on its floor tile, in the floor's API and on the tables list, linked to
the alerts of the table."""

from decimal import Decimal

import pytest
from django.urls import reverse

from alerts.choices import Monitor
from alerts.services import alert_raise, alert_resolve
from tables.models import Table
from tests.rounds.corrections_support import demo, demo_user

pytestmark = pytest.mark.django_db
__all__ = ["demo"]  # the fixture, used by name


def test_a_tables_alerts_show_on_the_floor_until_resolved(client, demo):
    bnd1 = Table.objects.get(code="BND1")
    kwargs = {"table": bnd1, "threshold": Decimal(10), "summary": "Silent"}
    warning = alert_raise(monitor=Monitor.SILENT_TABLE, measure=Decimal(12), **kwargs)
    alert_raise(monitor=Monitor.INGEST_BEHIND, measure=Decimal(30), **kwargs)
    client.force_login(demo_user("supervisor"))
    tiles = client.get(reverse("floor:tiles")).content.decode()
    assert "2 alerts open (critical)" in tiles
    api = {tile["table"]: tile for tile in client.get(reverse("api:floor")).json()["tables"]}
    assert api["BND1"]["alerts"] == ["2 alerts open (critical)"]
    tables = client.get(reverse("tables:table_list")).content.decode()
    link = f"{reverse('alerts:alert_list')}?table=BND1&amp;status=open&amp;status=acknowledged"
    assert link in tables
    listed = client.get(link.replace("&amp;", "&"))
    assert len(listed.context["table"].rows) == 2
    alert_resolve(alert=warning, by=demo_user("supervisor"), note="Shuffle over")
    assert "1 alert open (critical)" in client.get(reverse("floor:tiles")).content.decode()
