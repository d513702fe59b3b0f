"""`reverse(name, args=[value])` for the many rows of one page: reversed once, then filled in.

A list page links each of its 50 rows; reverse() walks the resolver and its thread-local settings
for each (1.2 ms of a round-list request). The result only differs by the quoted argument, so it
is reversed once with a marker and the argument quoted the way reverse() quotes it. An argument the
`str` converter would not take (empty, or holding "/") goes to reverse(), which refuses it.
"""

from urllib.parse import quote

from django.urls import reverse
from django.utils.http import RFC3986_SUBDELIMS

_MARK = "pitboss-argument-mark"
_SAFE = RFC3986_SUBDELIMS + "/~:@"  # what reverse() leaves unquoted


class ArgumentUrls:
    """URLs of one `<str:...>` URL name, made for one request (the script prefix is the request's)."""

    def __init__(self, name: str):
        self.name = name
        self.prefix, self.suffix = reverse(name, args=[_MARK]).split(_MARK)

    def __call__(self, value) -> str:
        text = str(value)
        if not text or "/" in text:
            return reverse(self.name, args=[value])
        return self.prefix + quote(text, safe=_SAFE) + self.suffix
