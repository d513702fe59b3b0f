"""A 403, 404 or 500 is a page of the portal (templates/base.html's frame) with a way back: a link
home, and one back to the list the page belongs to when the user may read it. Never Django's bare
or debug page; the 500 renders with the database out of reach. Under /api/ they are JSON."""

import pytest
from django.core.exceptions import PermissionDenied
from django.test import Client, override_settings
from django.urls import path

import config.urls
from tests.factories import user


def boom(request):
    raise RuntimeError("a bug")


def forbidden(request):
    raise PermissionDenied


# This module is the URLconf of the tests marked `urls`: the portal's, and URLs that fail.
urlpatterns = [
    path("boom/", boom),
    path("api/boom/", boom),
    path("api/forbidden/", forbidden),
    *config.urls.urlpatterns,
]
handler403 = config.urls.handler403
handler404 = config.urls.handler404
handler500 = config.urls.handler500


def assert_portal_page(html: str) -> None:
    assert '<header class="topbar">' in html  # the portal's frame, not Django's bare page
    assert '<link rel="stylesheet" href="/static/css/pitboss.css">' in html
    assert 'class="button' in html and 'href="/">Home</a>' in html  # the way home
    assert "Traceback" not in html and "technical_500" not in html


@pytest.mark.django_db
@override_settings(DEBUG=False)
def test_a_round_that_is_not_there_is_a_404_page_back_to_the_rounds(client):
    client.force_login(user("compliance"))
    response = client.get("/rounds/20261201-NOPE-S0001-001/")
    assert response.status_code == 404
    html = response.content.decode()
    assert_portal_page(html)
    assert "There is no page here" in html
    assert '<a class="button" href="/rounds/">Back to Rounds</a>' in html
    assert 'href="/rounds/incidents/">Incidents</a>' in html  # the navigation, as on any page


@pytest.mark.django_db
@override_settings(DEBUG=False)
def test_a_url_nothing_matches_is_a_404_page_with_the_way_home(client):
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    html = response.content.decode()
    assert_portal_page(html)
    assert "Back to" not in html  # signed out: no list to go back to
    assert "Log out" not in html


@pytest.mark.django_db
@override_settings(DEBUG=False)
def test_a_page_a_role_may_not_open_is_a_403_page_back_to_a_list_it_may_read(client):
    client.force_login(user("customer_service"))
    response = client.get("/rounds/incidents/1/")
    assert response.status_code == 403
    html = response.content.decode()
    assert_portal_page(html)
    assert "You may not open this page" in html
    assert "Customer service" in html
    # The incident list and the round list are above the page, but customer service may read
    # neither: no way back but home.
    assert "Back to" not in html
    assert 'href="/rounds/incidents/"' not in html and 'href="/rounds/"' not in html


@pytest.mark.django_db
@override_settings(DEBUG=False)
def test_a_403_under_a_list_goes_back_to_that_list(client):
    client.force_login(user("compliance"))
    response = client.get("/tables/DLX1/edit/")
    assert response.status_code == 403
    html = response.content.decode()
    assert_portal_page(html)
    assert '<a class="button" href="/tables/">Back to Tables</a>' in html


# No django_db mark: pytest-django refuses every query, so the 500 page is drawn with no database.
@pytest.mark.urls("tests.test_error_pages")
@override_settings(DEBUG=False)
def test_a_server_error_is_a_500_page_drawn_without_the_database():
    client = Client(raise_request_exception=False)
    response = client.get("/boom/?day=2026-12-01")
    assert response.status_code == 500
    html = response.content.decode()
    assert_portal_page(html)
    assert "Something went wrong on our side" in html
    assert '<a class="button" href="/boom/?day=2026-12-01">Try again</a>' in html
    assert "a bug" not in html


@pytest.mark.urls("tests.test_error_pages")
@override_settings(DEBUG=False)
def test_api_errors_stay_json():
    client = Client(raise_request_exception=False)
    response = client.get("/api/boom/")
    assert response.status_code == 500
    assert response.json() == {"detail": "Server error."}
    response = client.get("/api/forbidden/")
    assert response.status_code == 403
    assert response.json() == {"detail": "You do not have permission to perform this action."}
