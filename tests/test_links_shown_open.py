"""Links a role cannot open are not shown (issue 44): every link on every page a role opens, followed
as that role, opens (never a 403). The pages are the URL conf's (tests/test_page_query_fuzz.py's walk
and world); the links are those of each page's HTML, the navigation's included."""

import re
from html import unescape
from urllib.parse import urlsplit

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from tests.permission_matrix import PUBLIC
from tests.test_page_query_fuzz import pages, url_of, world  # noqa: F401

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("world")]

STAFF = ("supervisor", "compliance", "customer-service", "administrator")
HREF = re.compile(r'<a [^>]*href="([^"#]+)')
NOT_FOLLOWED = ("/static/", "/admin/", "/accounts/logout/")


def links_of(html: str) -> set[str]:
    found = set()
    for href in HREF.findall(html):
        url = unescape(href)
        parts = urlsplit(url)
        if parts.scheme or parts.netloc or not url.startswith("/") or url.startswith(NOT_FOLLOWED):
            continue
        found.add(url)
    return found


@pytest.mark.parametrize("username", STAFF)
def test_every_link_a_role_is_shown_opens(username):
    client = Client()
    client.force_login(get_user_model().objects.get(username=username))
    shown: dict[str, str] = {}  # link -> a page that shows it
    for name, pattern in sorted(pages().items()):
        if name in PUBLIC:
            continue
        url = url_of(name, pattern)
        response = client.get(url)
        if response.status_code != 200 or "text/html" not in response["Content-Type"]:
            continue
        for link in links_of(response.content.decode()):
            shown.setdefault(link, url)
    assert len(shown) > 10
    refused = [
        f"{link} (shown on {page})"
        for link, page in sorted(shown.items())
        if client.get(link).status_code == 403
    ]
    assert not refused, "\n".join(refused)
