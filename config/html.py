"""`format_html` for the pages' hot paths (list cells, the round page's rows): Django's, quicker.

Django's escapes each argument through conditional_escape and escape, each behind keep_lazy's check
for lazy strings, then marks the result through mark_safe's checks: 10 µs a call with two arguments
on the project's machine, and a list page or a round page makes hundreds of calls. This one gives
the same result in a third of the time for the usual arguments (text, and HTML already marked safe)
and hands any other to conditional_escape (tests/test_html.py compares the two).
"""

import html

from django.utils.html import conditional_escape
from django.utils.safestring import SafeData, SafeString


def format_html(format_string: str, *args, **kwargs) -> SafeString:
    return SafeString(
        format_string.format(*map(escaped, args), **{name: escaped(value) for name, value in kwargs.items()})
    )


def format_html_join(sep: str, format_string: str, args_generator) -> SafeString:
    return SafeString(escaped(sep).join(format_html(format_string, *args) for args in args_generator))


def escaped(value) -> str:
    """conditional_escape(value)"""
    if isinstance(value, SafeData):
        return value
    if type(value) is str:
        return html.escape(value)
    return conditional_escape(value)
