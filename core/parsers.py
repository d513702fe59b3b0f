"""The API's JSON parser: the standard library's reader, as DRF's JSONParser, behind two checks made
before it reads a thing, and one as it reads.

- Size: a body of more bytes than the parser's `body_limit()` is a 413 stating the limit. The limit is
  Django's DATA_UPLOAD_MAX_MEMORY_SIZE (2.5 MiB), except where a parser names another: POST
  /api/rounds/ takes up to PITBOSS_ROUND_BODY_LIMIT (rounds/api/views.py). The parser reads the
  request's stream itself (DRF hands a JSONParser `request.body`, which Django caps at
  DATA_UPLOAD_MAX_MEMORY_SIZE for every route), at most the limit and one byte more.
- Nesting: arrays and objects nested more than MAX_JSON_DEPTH levels deep are a 400. The standard
  library's reader recurses once a level and fails with a RecursionError (a 500) some 1,000 levels
  down; a round document nests 6 levels, a batch of them 8.
- Keys: an object that names a key twice is a 400 naming it where it is (`{"bets[1].returned":
  [...]}`), where the standard library would keep the last silently (`json_load`).

Used for every API view (DEFAULT_PARSER_CLASSES) and, with its own limit, for rounds.
"""

import codecs
import functools
import json
import re

from django.conf import settings
from rest_framework import renderers, status
from rest_framework.exceptions import APIException, ParseError
from rest_framework.parsers import BaseParser, get_encoding
from rest_framework.settings import api_settings

MAX_JSON_DEPTH = 64
TOO_DEEP = f"arrays and objects nested more than {MAX_JSON_DEPTH} levels deep"


def strict_constant(name: str):
    """json.loads' parse_constant for a strict parser (UNICODE_JSON/STRICT_JSON): NaN and Infinity are
    not JSON, and not amounts."""
    raise ValueError(f"Out of range float values are not JSON compliant: {name!r}")


# The scan keeps only quotes and brackets (escaped quotes and backslashes dropped first), brackets
# as ( and ), and matches the result with a regular expression for "never more than `limit` open"
# (bounded nesting is a regular language). Possessive repeats: it runs in linear time, in C.
_MARKS = b'"[]{}'
_NOT_MARKS = bytes(sorted(set(range(256)) - set(_MARKS)))
_AS_PARENTHESES = bytes.maketrans(b"[]{}", b"()()")
_STRING = rb'"[^"]*+"'


@functools.cache
def _nesting_at_most(limit: int, strings: bool) -> re.Pattern:
    """Parentheses (and, with `strings`, strings as "...") never more than `limit` deep; a stray
    closing one at the top is let by (the JSON reader stops there)."""
    atom = _STRING + b"|" if strings else b""
    group = None  # one balanced group at most k deep
    for _ in range(limit):
        inner = atom + group if group else atom.removesuffix(b"|")
        group = rb"\((?:" + inner + rb")*+\)" if inner else rb"\(\)"
    top = atom + rb"\)" + (b"|" + group if group else b"")
    return re.compile(rb"(?:" + top + rb")*+")


def json_nested_deeper_than(body: bytes, limit: int) -> bool:
    """Whether the UTF-8 JSON `body` opens more than `limit` arrays and objects at once, before its
    end or before what the reader would refuse in it (a body cut short counts what it opened)."""
    if b"\\" in body:
        body = body.replace(b"\\\\", b"").replace(b'\\"', b"")
    marks = body.translate(_AS_PARENTHESES, _NOT_MARKS)
    if marks.count(b"(") <= limit:
        return False
    # Closing brackets for whatever a body cut short left open: it is judged by what it opened.
    closes = b")" * (limit + 1)
    bare = marks.replace(b'""', b"")
    if b'"' not in bare:  # no bracket in any string (the quotes paired off in order)
        return _nesting_at_most(limit, strings=False).fullmatch(bare + closes) is None
    if marks.count(b'"') % 2:
        marks += b'"'  # a string cut short
    return _nesting_at_most(limit, strings=True).fullmatch(marks + closes) is None


class BadJSON(ValueError):
    """A JSON text the API does not read, though the standard library would."""


class JSONTooDeep(BadJSON):
    """A JSON text nested deeper than MAX_JSON_DEPTH."""


class DuplicateKey(BadJSON):
    """An object of the JSON text names `key` twice; `place` is where the object is ("bets[1]", ""
    for the top), `field` the key at that place ("bets[1].returned")."""

    def __init__(self, key: str, place: str):
        self.key, self.place = key, place
        self.field = f"{place}.{key}" if place else key
        self.message = f"the key {key!r} appears twice in this object; a JSON object names each key once"
        super().__init__(f"{self.field}: {self.message}")


def json_load(text: str | bytes, *, strict: bool = True, parse_float=None) -> object:
    """`json.loads`, refusing an object that names a key twice (DuplicateKey), where the standard
    library keeps the last: a round's `"returned"` twice, or a limit's `"max_stake"`, would be read
    as whichever came last. With `strict`, NaN and Infinity are refused. The one JSON reader of the
    API's bodies and of the files manage.py commands read."""
    twice = []  # (object, the key it names twice)

    def pairs(items: list) -> dict:
        value = dict(items)
        if len(value) != len(items):
            twice.append((value, _first_repeated(items)))
        return value

    value = json.loads(
        text,
        object_pairs_hook=pairs,
        parse_constant=strict_constant if strict else None,
        parse_float=parse_float,
    )
    if twice:
        found, key = twice[0]
        raise DuplicateKey(key, _place_of(found, value))
    return value


def _first_repeated(items: list) -> str:
    seen = set()
    for key, _ in items:
        if key in seen:
            return key
        seen.add(key)
    raise AssertionError("no key repeated")


def _place_of(found: dict, value: object) -> str:
    """Where the object `found` (itself, not an equal one) is in `value`: "bets[1]", "" for the top.
    Walked only when a key was named twice; no deeper than MAX_JSON_DEPTH."""
    stack = [(value, "")]
    while stack:
        node, place = stack.pop()
        if node is found:
            return place
        if isinstance(node, dict):
            stack.extend((child, f"{place}.{key}" if place else key) for key, child in node.items())
        elif isinstance(node, list):
            stack.extend((child, f"{place}[{index}]") for index, child in enumerate(node))
    return ""


def json_file_load(raw: bytes) -> object:
    """A JSON file's value (UTF-8), with the API's nesting check first and no key twice: what
    manage.py commands read."""
    if json_nested_deeper_than(raw, MAX_JSON_DEPTH):
        raise JSONTooDeep(TOO_DEEP)
    return json_load(raw.decode("utf-8"), strict=False)


class BodyTooLarge(APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_detail = "The request body is larger than this endpoint takes."
    default_code = "body_too_large"


def bytes_text(size: int) -> str:
    """33554432 -> "33,554,432 bytes (32 MiB)"."""
    return f"{size:,} bytes" + (f" ({size / 2**20:g} MiB)" if size >= 2**20 else "")


def read_body(stream, limit: int | None, request=None) -> bytes:
    """The body from `stream`, or BodyTooLarge when it holds more than `limit` bytes: by its
    Content-Length before anything is read, or by what it holds when that understates it."""
    if limit is None:
        return stream.read()
    where = f"{request.method} {request.path}" if request is not None else "this endpoint"
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0) if request is not None else 0
    except ValueError:
        length = 0
    if length > limit:
        raise BodyTooLarge(f"The body is {length:,} bytes; {where} takes at most {bytes_text(limit)}.")
    body = stream.read(limit + 1)
    if len(body) > limit:
        raise BodyTooLarge(
            f"The body is more than {limit:,} bytes; {where} takes at most {bytes_text(limit)}."
        )
    return body


class JSONParser(BaseParser):
    """DRF's JSONParser (the same data and errors) behind the size and nesting checks. A subclass
    may take another size (`body_limit`) or read the text its own way (`load`)."""

    media_type = "application/json"
    renderer_class = renderers.JSONRenderer
    strict = api_settings.STRICT_JSON

    def body_limit(self) -> int | None:
        return settings.DATA_UPLOAD_MAX_MEMORY_SIZE

    def parse(self, stream, media_type=None, parser_context=None):
        parser_context = parser_context or {}
        encoding = get_encoding(parser_context)
        body = read_body(stream, self.body_limit(), parser_context.get("request"))
        try:
            text = body.decode(encoding)
        except ValueError as exc:
            raise ParseError(f"JSON parse error - {exc}") from None
        utf8 = body if codecs.lookup(encoding).name == "utf-8" else text.encode("utf-8", "surrogatepass")
        if json_nested_deeper_than(utf8, MAX_JSON_DEPTH):
            raise ParseError(f"JSON parse error - {TOO_DEEP} (the most this API reads).")
        try:
            return self.load(text, parser_context)
        except DuplicateKey as twice:
            # Named where it is, as a field's error; `detail` is every error answer's message, a string.
            if twice.field == "detail":
                raise ParseError(f"JSON parse error - {twice}") from None
            raise ParseError({twice.field: [f"JSON parse error - {twice.message}."]}) from None
        except ValueError as exc:
            raise ParseError(f"JSON parse error - {exc}") from None

    def load(self, text: str, parser_context: dict):
        return json_load(text, strict=self.strict)
