"""Each member of staff sees times in their own time zone (accounts.Preferences, by default the gaming
day's), chosen on /accounts/preferences/ and kept in the session from sign-in, so that no page reads
it again (accounts.middleware.user_time_zone); pages before sign-in use the gaming day's zone, the API
UTC. Typed times (filters, forms) are read in the same zone."""

import re
from datetime import UTC, datetime

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.test import Client, RequestFactory
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from accounts.forms import PreferencesForm
from accounts.middleware import user_time_zone
from accounts.models import Preferences
from accounts.services import time_zone_set
from accounts.time_zones import COMMON_TIME_ZONES, SESSION_KEY, time_zone_names
from rounds.filtersets import RoundFilterSet
from rounds.models import Round
from tests.factories import user
from tests.second_factor_support import signed_in_with_code

pytestmark = pytest.mark.django_db
PREFERENCES = "/accounts/preferences/"


def signed_in(username: str = "supervisor-user", role: str = "supervisor") -> Client:
    """A client signed in through the login page, as a browser is."""
    client = Client()
    response = signed_in_with_code(client, user(role, username))  # the password, then the code
    assert response.status_code == 302, response.content[:300]
    return client


def field_errors(html: str, name: str) -> list[str]:
    """The errors shown under the form field `name` (templates/includes/field.html)."""
    block = re.search(rf'<div class="field field-{name} has-error">(.*?)\n</div>', html, re.S)
    assert block, f"no error shown at the field {name}"
    return re.findall(r'<div class="field-error">(.*?)</div>', block[1])


# --- the preferences page -----------------------------------------------------------------------


def test_the_page_offers_every_zone_grouped_with_the_common_ones_first_and_the_users_selected():
    client = signed_in()
    html = client.get(PREFERENCES).content.decode()
    groups = re.findall(r'<optgroup label="([^"]+)">', html)
    assert groups[0] == "Common" and "Europe" in groups and groups[-1] == "Other"
    assert len(re.findall(r"<option value=", html)) >= len(time_zone_names())
    # Nothing chosen yet: the gaming day's zone, selected once, among the common ones.
    assert re.findall(r'<option value="([^"]+)" selected>', html) == ["Europe/Malta"]
    assert "Times are shown in <strong>Europe/Malta</strong>" in html
    assert 'class="who" href="/accounts/preferences/"' in html  # the name in the header, beside Log out


def test_a_chosen_zone_is_stored_for_the_user_alone_and_shown_from_the_next_page_on():
    client = signed_in()
    other = user("compliance", "compliance-user")
    response = client.post(PREFERENCES, {"time_zone": "America/New_York", "user": other.pk})
    assert response.status_code == 302 and response["Location"] == PREFERENCES
    assert list(Preferences.objects.values_list("user__username", "time_zone")) == [
        ("supervisor-user", "America/New_York")
    ]
    assert client.session[SESSION_KEY] == "America/New_York"
    html = client.get(PREFERENCES).content.decode()
    assert "Times are now shown in America/New_York." in html
    assert re.findall(r'<option value="([^"]+)" selected>', html) == ["America/New_York"]
    assert re.search(r'now is <time datetime="[^"]+-0[45]:00" title="[^"]+ UTC">[^<]+ E[SD]T</time>', html)


@pytest.mark.parametrize(
    ("posted", "message"),
    [
        ("Mars/Olympus_Mons", "“Mars/Olympus_Mons” is not a time zone: choose one from the list"),
        ("localtime", "“localtime” is not a time zone"),  # the server's own setting, not a place
        ("", "Choose a time zone."),
    ],
)
def test_a_zone_that_is_not_one_is_refused_at_its_field_and_nothing_is_stored(posted, message):
    client = signed_in()
    response = client.post(PREFERENCES, {"time_zone": posted})
    assert response.status_code == 200
    html = response.content.decode()
    assert "Nothing was saved: correct the fields marked below." in html
    (error,) = field_errors(html, "time_zone")
    assert error.startswith(message), error
    assert '<label for="id_time_zone">Time zone' in html
    assert not Preferences.objects.exists()
    assert client.session[SESSION_KEY] == "Europe/Malta"


def test_the_form_and_the_service_refuse_an_unknown_zone_naming_the_field():
    form = PreferencesForm({"time_zone": "Europe/Atlantis"}, now=timezone.now())
    assert not form.is_valid()
    assert list(form.errors) == ["time_zone"]
    someone = user("supervisor")
    with pytest.raises(ValidationError) as refused:
        time_zone_set(user=someone, time_zone="Europe/Atlantis")
    assert list(refused.value.message_dict) == ["time_zone"]
    assert not Preferences.objects.exists()


def test_a_new_choice_replaces_the_last():
    someone = user("supervisor")
    time_zone_set(user=someone, time_zone="Europe/London")
    time_zone_set(user=someone, time_zone="Asia/Manila")
    assert list(Preferences.objects.values_list("time_zone", flat=True)) == ["Asia/Manila"]


def test_the_common_zones_are_all_known():
    assert set(COMMON_TIME_ZONES) <= time_zone_names()


def test_signed_out_the_page_sends_to_sign_in():
    response = Client().get(PREFERENCES)
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


# --- the session and the middleware --------------------------------------------------------------


def test_sign_in_puts_the_users_zone_in_the_session_and_no_page_reads_it_again():
    someone = user("supervisor", "supervisor-user")
    time_zone_set(user=someone, time_zone="Asia/Manila")
    client = signed_in()
    assert client.session[SESSION_KEY] == "Asia/Manila"
    with CaptureQueriesContext(connection) as queries:
        assert client.get("/tables/").status_code == 200
    assert not [q["sql"] for q in queries if "accounts_preferences" in q["sql"]]


def test_a_session_from_before_the_setting_reads_the_zone_once_and_keeps_it():
    someone = user("supervisor", "supervisor-user")
    time_zone_set(user=someone, time_zone="Europe/London")
    client = signed_in()
    session = client.session
    del session[SESSION_KEY]
    session.save()
    for reads in (1, 0):
        with CaptureQueriesContext(connection) as queries:
            assert client.get("/tables/").status_code == 200
        assert len([q for q in queries if "accounts_preferences" in q["sql"]]) == reads
    assert client.session[SESSION_KEY] == "Europe/London"


def zone_seen(request) -> str:
    """The zone active while the view runs, for a request through the middleware."""
    seen = []

    def view(request):
        seen.append(timezone.get_current_timezone_name())
        return None

    user_time_zone(view)(request)
    return seen[0]


def test_before_sign_in_pages_use_the_gaming_days_zone_and_the_api_utc(settings):
    settings.PITBOSS_GAMING_DAY_TIME_ZONE = "America/Chicago"
    factory = RequestFactory()
    request = factory.get("/accounts/login/")
    request.session, request.user = {}, type("Anonymous", (), {"is_authenticated": False})()
    assert zone_seen(request) == "America/Chicago"
    request = factory.get("/api/rounds/")
    request.session = {SESSION_KEY: "Asia/Manila"}
    assert zone_seen(request) == "UTC"
    assert timezone.get_current_timezone_name() == "UTC"  # nothing left active after the request


def test_the_api_writes_times_in_utc_whatever_the_users_zone():
    from rounds.services import incident_open
    from tests.factories import table

    someone = user("supervisor", "supervisor-user")
    time_zone_set(user=someone, time_zone="Asia/Manila")
    incident_open(table=table("DLX1"), kind="other", opened_by=someone, note="zones")
    client = signed_in()
    (row,) = client.get("/api/incidents/").json()["results"]
    assert row["opened_at"].endswith("Z")


# --- typed times --------------------------------------------------------------------------------


def test_a_time_typed_in_a_filter_is_read_in_the_active_zone_and_an_offset_kept():
    def read(value: str) -> datetime:
        filterset = RoundFilterSet({"opened_after": value}, queryset=Round.objects.none())
        assert filterset.is_valid(), filterset.errors
        return filterset.form.cleaned_data["opened_after"]

    with timezone.override("Europe/Malta"):
        assert read("2026-03-01T15:05") == datetime(2026, 3, 1, 14, 5, tzinfo=UTC)
        assert read("2026-07-01 15:05") == datetime(2026, 7, 1, 13, 5, tzinfo=UTC)
        assert read("2026-03-01T15:05+03:00") == datetime(2026, 3, 1, 12, 5, tzinfo=UTC)
        # 02:30 on 29 March 2026 never shows on Malta's clocks: refused, naming the zone.
        filterset = RoundFilterSet({"opened_after": "2026-03-29T02:30"}, queryset=Round.objects.none())
        assert not filterset.is_valid()
        assert "Europe/Malta" in filterset.errors["opened_after"][0]
    assert read("2026-03-01T15:05") == datetime(2026, 3, 1, 15, 5, tzinfo=UTC)  # the API's UTC


def test_the_configuration_form_reads_and_shows_its_start_in_the_users_zone():
    from tables.forms import ConfigurationForm
    from tables.models import TableConfiguration
    from tests.factories import table

    dlx = table("DLX1")
    rule_set = TableConfiguration.objects.get(table=dlx).rule_set
    data = {"valid_from": "2026-12-24T18:00", "reason": "Christmas paytable"}
    with timezone.override("Asia/Manila"):
        form = ConfigurationForm(data, table=dlx, rule_set=rule_set)
        form.is_valid()
        assert form.cleaned_data["valid_from"] == datetime(2026, 12, 24, 10, 0, tzinfo=UTC)
        assert str(form["valid_from"].label) == "In force from (Asia/Manila)"
