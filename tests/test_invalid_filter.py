"""A filter the form refuses (a day that is no date, a status no list has) answers 400 with the
page and the field's error, for the page and for its exports alike. Found in review: an export of
`/rounds/?_export=csv&day=garbage` answered 200 with a CSV of its header alone, which reads as "no
rounds that day", and the play record's CSV did the same."""

import pytest
from django import forms
from django.urls import reverse
from django.utils.html import escape

from core.listing import REFUSED_FILTER, FilteredListView
from rounds.services import incident_open
from tests.factories import player, table, user
from tests.routes_support import routes, view_class_of

pytestmark = pytest.mark.django_db

REFUSED = "not-a-value"


def list_routes():
    """(url name, view class) of every list page: each FilteredListView the URLs route to and answer a
    GET (a form posted to a list's own route, drawn with the list when it is refused, answers only a
    POST)."""
    for name, pattern in routes():
        view = view_class_of(pattern)
        if view is not None and issubclass(view, FilteredListView) and "get" in view.http_method_names:
            yield name, view


def refusing_field(view) -> str:
    """The first field of the list's filter that refuses REFUSED (a date, a choice, a number)."""
    for name, field in view.filterset_class.base_filters.items():
        form_field = field.field
        many = isinstance(form_field, forms.MultipleChoiceField | forms.ModelMultipleChoiceField)
        try:
            form_field.clean([REFUSED] if many else REFUSED)
        except forms.ValidationError:
            return name
    raise AssertionError(f"{view.__name__}'s filter takes any text in every field")


LISTS = sorted(list_routes())
# The lists compliance may not read, and the role that reads each.
READ_BY = {"staff:users": "administrator"}


def test_the_walk_finds_the_lists():
    names = {name for name, view in LISTS}
    assert {
        "rounds:round_list",
        "tables:table_list",
        "reports:daily_report",
        "rounds:incident_refunds",
    } <= names


@pytest.fixture
def compliance(client):
    dlx = table("DLX1")
    player("P1001")
    client.force_login(user("compliance"))
    client.incident = incident_open(table=dlx, kind="other", opened_by=user("supervisor"), note="x")
    return client


def url_of(name: str, client) -> str:
    return reverse(name, args=[client.incident.pk]) if name == "rounds:incident_refunds" else reverse(name)


@pytest.mark.parametrize("export", [None, "csv", "xlsx"])
@pytest.mark.parametrize("name, view", LISTS, ids=[name for name, view in LISTS])
def test_a_refused_filter_answers_400_with_the_fields_error_page_or_export(compliance, name, view, export):
    field = refusing_field(view)
    query = {field: REFUSED, **({"_export": export} if export else {})}
    if name in READ_BY:
        compliance.force_login(user(READ_BY[name]))
    compliance.get(url_of(name, compliance))  # the list drawn once as it is (cached rows included)
    response = compliance.get(url_of(name, compliance), query)
    assert response.status_code == 400, (response.status_code, response["Content-Type"])
    assert response["Content-Type"].startswith("text/html"), response["Content-Type"]
    errors = response.context["filter"].form.errors
    assert field in errors, errors
    html = response.content.decode()
    assert f'id="id_{field}"' in html
    assert escape(errors[field][0]) in html, "the page shows the field's error"
    assert "Export CSV" not in html, "no export is offered of a filter the list refuses"
    assert REFUSED_FILTER in html, "the list does not say 'none matches'"


@pytest.mark.parametrize("export", [None, "csv"])
def test_a_play_record_with_a_refused_filter_answers_400_with_the_fields_error(compliance, export):
    query = {"day": REFUSED, **({"_export": export} if export else {})}
    response = compliance.get(reverse("rounds:play_record", args=["P1001"]), query)
    assert response.status_code == 400, (response.status_code, response["Content-Type"])
    assert response["Content-Type"].startswith("text/html"), response["Content-Type"]
    assert "day" in response.context["filterset"].form.errors
    html = response.content.decode()
    assert "Enter a valid date." in html
    assert "Export CSV" not in html
    assert REFUSED_FILTER in html


def test_a_valid_filter_still_exports(compliance):
    page = compliance.get(reverse("rounds:round_list"), {"day": "2026-03-01"})
    assert page.status_code == 200 and "Export CSV" in page.content.decode()
    response = compliance.get(reverse("rounds:round_list"), {"_export": "csv", "day": "2026-03-01"})
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")


def test_a_refused_filter_is_said_after_an_empty_play_record_was_drawn(compliance):
    """Found by CI: the play record's rows are cached by what they show, so the empty rows drawn
    once ("No bet matches.") were drawn again for a refused filter, whose page says why it lists none."""
    url = reverse("rounds:play_record", args=["P1001"])
    assert "No bet matches." in compliance.get(url).content.decode()
    refused = compliance.get(url, {"day": REFUSED}).content.decode()
    assert REFUSED_FILTER in refused and "No bet matches." not in refused
