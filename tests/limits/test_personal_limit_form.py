"""The personal-limit page saves exactly the scope its selects show when Save is pressed.

`Browser` submits the page's POST form as a browser does: every control of that form with its
value, the visible ones changed as an agent would (a hidden input cannot be changed, a control
outside the form is not sent). Before the fix the scope selects sat in a separate GET form, so
picking Bust Bonus at BND1 and saving stored "all kinds at every table".
"""

from decimal import Decimal
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from limits.models import PersonalLimit, Player
from tables.models import Table
from tests.limits.test_pages import login, make_player, make_table, set_limit

pytestmark = pytest.mark.django_db

URL = "/limits/players/P1001/limits/set/"


class PostForm(HTMLParser):
    """The controls of the page's `<form method="post">`: name -> [value, visible]; its buttons."""

    def __init__(self, html: str):
        super().__init__()
        self.controls: dict[str, list] = {}
        self.buttons: dict[str, tuple[str, str]] = {}  # text -> (name, value)
        self._in_form = False
        self._select = self._textarea = self._button = None
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form" and attrs.get("method", "get").lower() == "post":
            self._in_form = True
        if not self._in_form:
            return
        if tag == "input" and attrs.get("name"):
            self.controls[attrs["name"]] = [attrs.get("value") or "", attrs.get("type") != "hidden"]
        elif tag == "select":
            self._select = attrs["name"]
            self.controls[self._select] = [None, True]
        elif tag == "option" and self._select:
            control = self.controls[self._select]
            if control[0] is None or "selected" in attrs:
                control[0] = attrs.get("value", "")
        elif tag == "textarea":
            self._textarea = attrs["name"]
            self.controls[self._textarea] = ["", True]
        elif tag == "button":
            self._button = [attrs.get("name", ""), attrs.get("value", ""), ""]

    def handle_data(self, data):
        if self._textarea:
            self.controls[self._textarea][0] += data.lstrip("\n")
        if self._button:
            self._button[2] += data

    def handle_endtag(self, tag):
        if tag == "form" and self._in_form:
            self._in_form = False
        elif tag == "select":
            self._select = None
        elif tag == "textarea":
            self._textarea = None
        elif tag == "button" and self._button:
            name, value, text = self._button
            self.buttons[text.strip()] = (name, value)
            self._button = None


class Browser:
    def __init__(self, client):
        self.client = client
        self.response = None

    def open(self, url=URL, **query):
        self.response = self.client.get(url, query)
        assert self.response.status_code == 200
        return self

    def submit(self, button="Save the limit", **typed):
        """Change the visible controls named in `typed`, then press `button`."""
        form = PostForm(self.response.content.decode())
        data = {}
        for name, (value, _visible) in form.controls.items():
            data[name] = value
        for name, value in typed.items():
            assert name in form.controls, f"the form has no control {name!r}"
            assert form.controls[name][1], f"{name!r} is hidden: an agent cannot change it"
            data[name] = value
        name, value = form.buttons[button]
        if name:
            data[name] = value
        self.response = self.client.post(self.response.request["PATH_INFO"], data)
        return self.response

    def selects(self) -> tuple:
        form = PostForm(self.response.content.decode())
        return tuple(form.controls[name][0] for name in ("kind", "table", "game"))

    def panel(self) -> str:
        return self.response.content.decode().split("This limit now", 1)[1]


def _player() -> Player:
    return Player.objects.get(external_id="P1001")


def _table(code: str) -> Table:
    return Table.objects.get(code=code)


def stored() -> list[tuple]:
    rows = PersonalLimit.objects.select_related("table").order_by("id")
    return [(row.kind, row.table.code if row.table else None, row.game, row.max_stake) for row in rows]


@pytest.fixture
def agent(client):
    make_table("DLX1")
    make_table("BND1", game="boundless")
    make_player()
    login(client, "customer_service")
    return Browser(client)


def test_the_scope_picked_is_shown_for_confirmation_then_saved(agent):
    agent.open()
    response = agent.submit(kind="bust_bonus", table="BND1", max_stake="3", reason="small side bets")
    assert response.status_code == 200
    assert stored() == []  # nothing saved for a scope the page was not showing
    assert "Bust Bonus at BND1" in agent.panel()
    assert "Nothing was saved" in response.content.decode()
    assert agent.selects() == ("bust_bonus", "BND1", "")
    response = agent.submit()  # Save again: the values on screen
    assert response.status_code == 302
    assert stored() == [("bust_bonus", "BND1", "", Decimal("3.00"))]


def test_a_validation_error_keeps_the_selects(agent):
    agent.open()
    response = agent.submit(kind="bust_bonus", table="BND1", min_stake="5", max_stake="3", reason="asked")
    assert response.status_code == 200
    assert "is above the maximum" in response.content.decode()
    assert agent.selects() == ("bust_bonus", "BND1", "")
    response = agent.submit(min_stake="")
    assert response.status_code == 302
    assert stored() == [("bust_bonus", "BND1", "", Decimal("3.00"))]


def test_an_error_on_the_shown_scope_keeps_the_selects(agent):
    agent.open(kind="bust_bonus", table="BND1")
    response = agent.submit(max_stake="3", reason="")
    assert response.context["form"].errors["reason"]
    assert agent.selects() == ("bust_bonus", "BND1", "")
    assert "Bust Bonus at BND1" in agent.panel()
    assert stored() == []


def test_a_table_and_a_game_at_once_is_refused_beside_the_select(agent):
    agent.open()
    response = agent.submit(table="BND1", game="boundless", max_stake="3", reason="asked")
    assert response.status_code == 200
    assert "one table or for one game" in response.content.decode()
    assert agent.selects() == ("", "BND1", "boundless")
    assert stored() == []


def test_show_this_limit_shows_the_scope_and_keeps_what_was_typed(agent):
    set_limit(_player(), "9.00", kind="bust_bonus")
    agent.open()
    response = agent.submit("Show this limit", kind="bust_bonus", max_stake="3", reason="asked")
    assert response.status_code == 200
    assert "Bust Bonus at every table" in agent.panel() and "9.00" in agent.panel()
    assert agent.selects() == ("bust_bonus", "", "")
    form = PostForm(response.content.decode())
    assert (form.controls["max_stake"][0], form.controls["reason"][0]) == ("3", "asked")
    assert "field-error" not in response.content.decode()
    assert len(stored()) == 1
    assert agent.submit().status_code == 302
    assert stored()[-1] == ("bust_bonus", None, "", Decimal("3.00"))


def test_a_post_for_another_scope_than_the_one_shown_saves_nothing(client, agent):
    """Whatever the page sends: the scope saved is the one whose setting the agent saw."""
    data = {"kind": "pair", "table": "DLX1", "game": "", "seen_kind": "", "seen_table": "", "seen_game": ""}
    data.update(seen_setting="0", max_stake="5.00", reason="asked")
    response = client.post(URL, data)
    assert response.status_code == 200
    assert stored() == []
    assert "Pair at DLX1" in response.content.decode().split("This limit now", 1)[1]


def test_the_stale_check_is_for_the_scope_saved(agent):
    player = _player()
    agent.open(kind="bust_bonus", table="BND1")
    set_limit(player, "50.00", reason="another agent, another scope")
    assert agent.submit(max_stake="3", reason="asked").status_code == 302

    agent.open(kind="bust_bonus", table="BND1")
    set_limit(player, "2.00", kind="bust_bonus", table=_table("BND1"), reason="another agent, this scope")
    response = agent.submit(max_stake="1", reason="asked")
    assert response.status_code == 200
    assert "Someone changed this limit" in response.content.decode()
    assert PersonalLimit.objects.latest("id").reason == "another agent, this scope"
    assert agent.submit().status_code == 302  # the page now shows the new setting
    assert stored()[-1] == ("bust_bonus", "BND1", "", Decimal("1.00"))


def test_a_change_link_opens_the_page_on_its_scope(agent):
    agent.open(reverse("limits:personal_limit_set", args=["P1001"]), kind="pair", table="DLX1")
    assert agent.selects() == ("pair", "DLX1", "")
    assert "Pair at DLX1" in agent.panel()
