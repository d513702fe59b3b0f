"""config.html's format_html and format_html_join give exactly Django's results, only quicker."""

from decimal import Decimal

import pytest
from django.utils import html as django_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_lazy

from config import html

VALUES = ["plain", "<b>'&\"</b>", mark_safe("<i>safe</i>"), 7, Decimal("1.50"), None, gettext_lazy("Yes"), ""]


@pytest.mark.parametrize("value", VALUES, ids=repr)
def test_each_kind_of_argument_is_escaped_as_django_does(value):
    ours = html.format_html('<span title="{}">{}</span>', value, value)
    assert ours == django_html.format_html('<span title="{}">{}</span>', value, value)
    assert isinstance(ours, SafeString)
    assert html.format_html("{a}{b}", a=value, b="<") == django_html.format_html("{a}{b}", a=value, b="<")


def test_joined_as_django_joins():
    rows = [(value, "x") for value in VALUES]
    ours = html.format_html_join("<br>", "<td>{}</td><td>{}</td>", rows)
    assert ours == django_html.format_html_join("<br>", "<td>{}</td><td>{}</td>", rows)
    assert html.format_html_join("", "{}", []) == ""
