"""Logging filters named in settings.LOGGING."""

import logging

CSRF_LOGGER = "django.security.csrf"


def _one_line(value: str) -> str:
    # As Django escapes what it logs of a request: a path cannot start a line of its own.
    return value.encode("unicode_escape").decode("ascii")


class RefusalOneLine(logging.Filter):
    """A 403 as one line, `Forbidden: GET /tables/DLX1/edit/ by compliance (403)`, without the
    traceback Django attaches when a view raises PermissionDenied: a refusal is an expected answer,
    not a fault. A CSRF refusal keeps its reason at the end. Other records pass unchanged.

    Django's request loggers pass the request and the status code in the record (`extra`).
    """

    def filter(self, record: logging.LogRecord) -> bool:
        request = getattr(record, "request", None)
        if getattr(record, "status_code", None) != 403 or request is None:
            return True
        # Logging configured twice puts two of these filters on a logger: rewrite a record once.
        if getattr(record, "one_line", False):
            return True
        record.one_line = True
        user = getattr(request, "user", None)
        who = user.get_username() if user is not None and user.is_authenticated else "anonymous"
        line = f"Forbidden: {request.method} {_one_line(request.path)} by {_one_line(who)} (403)"
        if record.name == CSRF_LOGGER and record.args:
            line += f": {record.args[0]}"  # the reason, as the CSRF check logs it ("Forbidden (%s): %s")
        record.msg, record.args = line, ()
        record.exc_info = record.exc_text = None
        return True
