"""The project's form renderer (settings.FORM_RENDERER): Django's, drawing inputs and selects in Python.

Django draws each widget through its templates, and each option of a select through two more:
a list page's filter form (eleven fields, a select of 39 finding codes among them) took 8 ms of a
40 ms request. The HTML here is those templates' own (tests/test_form_renderer.py compares them);
any other widget, or a select whose options have a template of their own, goes to the templates.
"""

from django.forms.renderers import DjangoTemplates
from django.template import Context
from django.template.base import render_value_in_context
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe

WIDGETS = "django/forms/widgets"
# The widget templates that are `{% include "django/forms/widgets/input.html" %}` and nothing else.
INPUTS = {
    f"{WIDGETS}/{name}.html"
    for name in (
        *("text", "number", "email", "url", "password", "hidden", "search", "tel", "color"),
        *("date", "datetime", "time", "checkbox", "file"),
    )
}
SELECT = f"{WIDGETS}/select.html"
OPTION = f"{WIDGETS}/select_option.html"
AUTOESCAPE = Context()  # what `{{ value }}` needs to know: autoescape on, localisation as set


class FormRenderer(DjangoTemplates):
    def render(self, template_name, context, request=None):
        if template_name in INPUTS:
            return mark_safe(input_html(context["widget"]))
        if template_name == SELECT and all(
            option["template_name"] == OPTION
            for _, options, _ in context["widget"]["optgroups"]
            for option in options
        ):
            return mark_safe(select_html(context["widget"]))
        return super().render(template_name, context, request)


def text(value) -> str:
    """`{{ value }}`."""
    return render_value_in_context(value, AUTOESCAPE)


def attrs_html(attrs: dict) -> str:
    """django/forms/widgets/attrs.html (`value|stringformat:'s'`, escaped, is conditional_escape)."""
    return "".join(
        f" {text(name)}" if value is True else f' {text(name)}="{conditional_escape(value)}"'
        for name, value in attrs.items()
        if value is not False
    )


def input_html(widget: dict) -> str:
    """django/forms/widgets/input.html"""
    value = "" if widget["value"] is None else f' value="{conditional_escape(widget["value"])}"'
    attrs = attrs_html(widget["attrs"])
    return f'<input type="{text(widget["type"])}" name="{text(widget["name"])}"{value}{attrs}>'


def select_html(widget: dict) -> str:
    """django/forms/widgets/select.html with select_option.html, whitespace and all."""
    parts = [f'<select name="{text(widget["name"])}"{attrs_html(widget["attrs"])}>']
    for group_name, options, _ in widget["optgroups"]:
        if group_name:
            parts.append(f'\n  <optgroup label="{text(group_name)}">')
        for option in options:
            parts.append(
                f'\n  <option value="{conditional_escape(option["value"])}"{attrs_html(option["attrs"])}>'
                f"{text(option['label'])}</option>\n"  # select_option.html ends with a newline
            )
        if group_name:
            parts.append("\n  </optgroup>")
    parts.append("\n</select>")
    return "".join(parts)
