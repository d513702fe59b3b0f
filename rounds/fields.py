"""A model field for JSON kept as the text it was encoded to."""

import json

from django.db import models

from .bulk import JsonText, json_text


class JsonTextField(models.TextField):
    """A JSON value stored as text, read back as the value.

    For a round document, not jsonb: PostgreSQL parses a 2 MB jsonb value (a 5,000-player round)
    in about 45 ms and keeps it no smaller, and nothing queries inside the document.
    """

    description = "JSON value kept as text"
    holds_json_text = True  # bulk.insert_rows writes its JsonText as the text

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
