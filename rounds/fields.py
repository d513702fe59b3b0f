"""Model fields for JSON kept as the text it was encoded to: compressed (a round's document), or as it is
(the document's field before migration rounds/0022, which the earlier migrations still name)."""

import json

import zstandard
from django.db import models

from .bulk import JsonText, json_text

# zstd's default level. Measured on 5,000-player Boundless rounds (make bench BENCH=layouts): a 1.9 MB
# document compresses in about 2 ms to 15.0 bytes a bet, against 34.9 under PostgreSQL's lz4; level 9
# gives 11.7 in 16-19 ms. Reading one back takes as long as the lz4 text did.
ZSTD_LEVEL = 3


def compressed_json(text: str) -> bytes:
    """JSON text as the compressed field stores it."""
    return zstandard.compress(text.encode(), ZSTD_LEVEL)


def json_of_compressed(data: bytes | memoryview) -> str:
    """The JSON text a compressed field stored, exactly as it was encoded."""
    return zstandard.decompress(bytes(data)).decode()


class CompressedJsonField(models.BinaryField):
    """A JSON value stored as its text compressed with zstd, read back as the value.

    For a round document: TOAST compresses with lz4 or pglz only, and nothing queries inside the
    document (a jsonb column would parse 2 MB a 5,000-player round, 45 ms, and keep it no smaller).
    The text is exactly the one encoded (its sha256 is the round's `document_sha256`), and what the
    archive exports (`json_of_compressed`). PostgreSQL stores the column EXTERNAL: it does not try
    to compress it again.
    """

    description = "JSON value kept as zstd-compressed text"
    # JSON to bulk.insert_rows (a JsonText's text is compressed, not encoded again) and to the
    # archive (its files keep the text, archive.recall reads it back as JSON).
    holds_json_text = True

    def get_prep_value(self, value):
        if value is None:
            return None
        if isinstance(value, JsonText):
            return compressed_json(value.text)
        return compressed_json(json_text(value))

    def from_db_value(self, value, expression, connection):
        return None if value is None else json.loads(json_of_compressed(value))

    def to_python(self, value):
        if isinstance(value, str):  # value_to_string's, from a fixture
            return json.loads(value)
        if isinstance(value, bytes | memoryview):
            return json.loads(json_of_compressed(value))
        return value

    def value_to_string(self, obj):
        value = self.value_from_object(obj)
        return None if value is None else json_text(value)


class JsonTextField(models.TextField):
    """A JSON value stored as text, read back as the value: the round document's field until
    migration rounds/0022 compressed it (CompressedJsonField). Named by the migrations before it."""

    description = "JSON value kept as text"

    def from_db_value(self, value, expression, connection):
        return None if value is None else json.loads(value)

    def get_prep_value(self, value):
        if value is None:
            return None
        if isinstance(value, JsonText):
            return value.text
        return json_text(value)

    def value_to_string(self, obj):
        return self.get_prep_value(self.value_from_object(obj))
