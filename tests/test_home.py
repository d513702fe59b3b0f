"""The home page needs a login; the login page and the stylesheet are served by the app."""

import pytest
from django.contrib.staticfiles import finders
from django.urls import reverse


def test_the_home_page_sends_anonymous_visitors_to_the_login_page(client):
    response = client.get("/")
    assert response.status_code == 302
    assert response["Location"] == "/accounts/login/?next=/"


@pytest.mark.django_db
def test_the_login_page_renders_with_the_local_stylesheet(client):
    response = client.get(reverse("login"))
    assert response.status_code == 200
    html = response.content.decode()
    assert 'name="username"' in html
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
    response = client.post(reverse("login"), {"username": "compliance", "password": "pw-for-tests-only"})
    assert response.status_code == 302
    assert response["Location"] == reverse("home")


@pytest.mark.django_db
def test_pages_forbid_loading_from_other_origins(client):
    response = client.get(reverse("login"))
    assert "default-src 'self'" in response["Content-Security-Policy"]


def test_the_stylesheet_is_a_local_static_file():
    assert finders.find("css/pitboss.css") is not None
