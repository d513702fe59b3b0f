"""The project's form renderer draws inputs and selects exactly as Django's widget templates do."""

import datetime
from decimal import Decimal

import pytest
from django import forms
from django.forms.renderers import DjangoTemplates
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy

from config.form_renderer import FormRenderer

CHOICES = [
    ("", "Any"),
    ("a&b", "A & B"),
    (3, 3),
    (Decimal("1.50"), mark_safe("<b>bold</b>")),
    ("lazy", gettext_lazy("Unknown")),
    ("Group <1>", [("g1", "First"), ("g2", "Second")]),
]

WIDGETS = [
    (forms.TextInput(), "it's <text> & more"),
    (forms.TextInput(attrs={"required": True, "disabled": False, "data-x": None, "size": 5}), None),
    (forms.NumberInput(attrs={"step": "0.01"}), Decimal("2.50")),
    (forms.EmailInput(), "a@b.c"),
    (forms.URLInput(), "https://example.com/?a=1&b=2"),
    (forms.PasswordInput(render_value=True), "secret"),
    (forms.PasswordInput(), "secret"),
    (forms.HiddenInput(), 7),
    (forms.SearchInput(), ""),
    (forms.TelInput(), "+356 1"),
    (forms.ColorInput(), "#ff0000"),
    (forms.DateInput(), datetime.date(2026, 11, 30)),
    (forms.DateTimeInput(), datetime.datetime(2026, 11, 30, 6, 0)),
    (forms.TimeInput(), datetime.time(6, 0)),
    (forms.CheckboxInput(), True),
    (forms.CheckboxInput(), False),
    (forms.FileInput(), None),
    (forms.Select(choices=CHOICES), "a&b"),
    (forms.Select(choices=CHOICES, attrs={"class": "x"}), None),
    (forms.SelectMultiple(choices=CHOICES), ["g2", "3", "lazy"]),
    (forms.NullBooleanSelect(), True),
    (forms.Select(choices=[]), ""),
]


@pytest.mark.parametrize("widget,value", WIDGETS, ids=lambda w: type(w).__name__)
def test_a_widget_is_drawn_as_its_template_draws_it(widget, value):
    attrs = {"id": "id_field", "aria-describedby": 'help "x"'}
    ours = widget.render("field", value, attrs, renderer=FormRenderer())
    assert ours == widget.render("field", value, attrs, renderer=DjangoTemplates())


def test_other_widgets_go_to_their_templates():
    widget = forms.RadioSelect(choices=[("a", "A"), ("b", "B")])
    assert widget.render("r", "a", renderer=FormRenderer()) == widget.render(
        "r", "a", renderer=DjangoTemplates()
    )
    widget = forms.Textarea()
    assert widget.render("t", "x<y", renderer=FormRenderer()) == widget.render(
        "t", "x<y", renderer=DjangoTemplates()
    )
