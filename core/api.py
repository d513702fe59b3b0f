"""Pieces every app's API shares: errors, permissions, pagination, money fields."""

from django.core.exceptions import ValidationError as DjangoValidationError
from django.core.validators import ProhibitNullCharactersValidator
from rest_framework import exceptions, pagination, permissions, serializers, status
from rest_framework.response import Response
from rest_framework.settings import api_settings

from blackjack.amounts import AMOUNT_RULE, amount_of
from core.money import AMOUNT_DIGITS, TOTAL_DIGITS


def validation_error_data(error: DjangoValidationError) -> dict[str, list[str]]:
    """A service's ValidationError as {"field": ["message", ...]}; `__all__` becomes non_field_errors."""
    if hasattr(error, "error_dict"):
        return {
            (api_settings.NON_FIELD_ERRORS_KEY if field == "__all__" else field): messages
            for field, messages in error.message_dict.items()
        }
    return {api_settings.NON_FIELD_ERRORS_KEY: error.messages}


def exception_handler(exc, context):
    """DRF's handler, plus services' ValidationError as HTTP 400 naming the field.

    Every 4xx answer is an object with a message: `{"detail": "..."}` or `{"field": ["..."]}`.
    """
    # Imported here: rest_framework.views reads DEFAULT_PERMISSION_CLASSES (this module) on import.
    from rest_framework.views import exception_handler as drf_exception_handler
    from rest_framework.views import set_rollback

    if isinstance(exc, DjangoValidationError):
        set_rollback()
        return Response(validation_error_data(exc), status=status.HTTP_400_BAD_REQUEST)
    response = drf_exception_handler(exc, context)
    if response is not None and isinstance(response.data, list):  # ValidationError(["..."])
        response.data = {api_settings.NON_FIELD_ERRORS_KEY: response.data}
    return response


class ModelPermissions(permissions.DjangoModelPermissions):
    """Django's model permissions, with reading too: GET/HEAD/OPTIONS need view_<model>,
    POST add_<model>, PUT/PATCH change_<model>, DELETE delete_<model>. The model is the view's
    queryset's, so a nested endpoint (a table's status changes) checks its own model."""

    perms_map = {
        "GET": ["%(app_label)s.view_%(model_name)s"],
        "OPTIONS": ["%(app_label)s.view_%(model_name)s"],
        "HEAD": ["%(app_label)s.view_%(model_name)s"],
        "POST": ["%(app_label)s.add_%(model_name)s"],
        "PUT": ["%(app_label)s.change_%(model_name)s"],
        "PATCH": ["%(app_label)s.change_%(model_name)s"],
        "DELETE": ["%(app_label)s.delete_%(model_name)s"],
    }


def has_permission(perm: str) -> type[permissions.BasePermission]:
    """A permission class that lets an authenticated user with `perm` through, whatever the method."""

    class HasPermission(permissions.BasePermission):
        def has_permission(self, request, view):
            user = request.user
            return bool(user and user.is_authenticated and user.has_perm(perm))

    HasPermission.__name__ = HasPermission.__qualname__ = f"HasPermission[{perm}]"
    return HasPermission


class Pagination(pagination.PageNumberPagination):
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 500


class MoneyField(serializers.DecimalField):
    """An amount such as "10.00": a decimal string out; in, a string written as a round document writes
    an amount (blackjack.amounts: "1e3", "+5.00", " 5.00" and the like are refused), never a JSON
    number, as in a round document. Out, it may be a total (wider than an amount)."""

    default_error_messages = {
        "invalid": f"Not an amount: {AMOUNT_RULE}.",
        "number": 'An amount is a decimal string such as "10.00", never a JSON number.',
    }

    def __init__(self, **kwargs):
        kwargs.setdefault("max_digits", TOTAL_DIGITS if kwargs.get("read_only") else AMOUNT_DIGITS)
        kwargs.setdefault("decimal_places", 2)
        kwargs.setdefault("coerce_to_string", True)
        super().__init__(**kwargs)

    def to_internal_value(self, data):
        if isinstance(data, bool) or not isinstance(data, (str, int, float)):
            self.fail("invalid")
        if not isinstance(data, str):
            self.fail("number")
        try:
            amount_of(data)
        except ValueError:
            self.fail("invalid")
        return super().to_internal_value(data)


class SlugRelatedField(serializers.SlugRelatedField):
    """DRF's, refusing a NUL character before the lookup (PostgreSQL cannot compare one), as DRF's
    CharField does."""

    def to_internal_value(self, data):
        if isinstance(data, str) and "\x00" in data:
            raise serializers.ValidationError(ProhibitNullCharactersValidator.message)
        return super().to_internal_value(data)


def refuse_unknown_fields(unknown: list[str], takes: str):
    """A 400 naming each field of a body that the request does not take (`takes` says what it
    does). Each is an error under its own name, but `detail`, the message of every error answer, is
    a string (ERROR_SCHEMA): a field of that name is named in the message instead."""
    if "detail" in unknown:
        raise exceptions.ParseError(f"Not taken here: {', '.join(unknown)} ({takes}).")
    raise serializers.ValidationError({name: [f"Not taken here ({takes})."] for name in unknown})


class InputSerializer(serializers.Serializer):
    """A request body: a field this request does not take is an error naming it, not ignored
    (a typo such as `max_stak`, or `game` in a change that cannot change it)."""

    def to_internal_value(self, data):
        if hasattr(data, "keys"):
            unknown = sorted(set(data.keys()) - set(self.fields))
            if unknown:
                refuse_unknown_fields(unknown, f"this request takes: {', '.join(self.fields)}")
        return super().to_internal_value(data)


def validated(serializer_class, request, **kwargs) -> dict:
    """The request body checked by `serializer_class`; HTTP 400 naming the field when it is not."""
    serializer = serializer_class(data=request.data, context={"request": request}, **kwargs)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


# The schema's error answers (drf-spectacular post-processing hooks, see SPECTACULAR_SETTINGS).

ERROR_SCHEMA = {
    "type": "object",
    "description": "What went wrong: `detail` for the request as a whole, or each field it concerns "
    "with its messages (`non_field_errors` for the request body as a whole).",
    "properties": {"detail": {"type": "string"}},
    "additionalProperties": {"type": "array", "items": {"type": "string"}},
    "minProperties": 1,
}
ERROR_RESPONSES = {
    "400": "Bad input: the field and why.",
    "401": "No credentials, or bad ones (a token or a session).",
    "403": "The user's role may not do this.",
    "404": "Nothing under this id (or a page past the last one).",
    "413": "A request body larger than this operation takes (2.5 MiB; 32 MiB for POST /api/rounds/).",
    "415": "A request body in a media type this operation does not read.",
    "429": "Too many requests from this token or user this minute: wait Retry-After seconds.",
}
HTTP_METHODS = {"get", "put", "post", "delete", "options", "head", "patch", "trace"}


def _error_statuses(operation: dict) -> list[str]:
    """401, 403 and 429 everywhere (every endpoint needs a role and is throttled) but on a public
    operation (security `[{}]`: no credentials, and a throttle of its own, which it documents: the
    rule sheets' per address); 400 where input is read, 413 and 415 where a body is; 404 where
    something is looked up by its id, or pages are."""
    parameters = operation.get("parameters", [])
    statuses = [] if operation.get("security") == [{}] else ["401", "403", "429"]
    if "requestBody" in operation or any(p["in"] == "query" for p in parameters):
        statuses.append("400")
    if any(p["in"] == "path" or p["name"] in ("page", "cursor") for p in parameters):
        statuses.append("404")
    if "requestBody" in operation:
        statuses += ["413", "415"]
    return statuses


def document_errors(result, generator, request, public):
    """Every operation documents the errors it can answer, each with the body `exception_handler`
    gives every 4xx."""
    result["components"]["schemas"]["Error"] = ERROR_SCHEMA
    error_content = {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
    for operations in result["paths"].values():
        for method, operation in operations.items():
            if method not in HTTP_METHODS:
                continue
            responses = operation["responses"]
            for status_code in _error_statuses(operation):
                responses.setdefault(status_code, {"description": ERROR_RESPONSES[status_code]})
            for status_code, response in responses.items():
                if status_code.startswith("4"):
                    response.setdefault("content", error_content)
    return result


def times_of_day(result, generator, request, public):
    """DRF writes a time of day as "06:00:00", without the UTC offset that `format: time` (RFC 3339)
    requires, so such a field is described by a pattern instead."""
    for component in result["components"]["schemas"].values():
        for field in component.get("properties", {}).values():
            if field.get("format") == "time":
                del field["format"]
                field["pattern"] = r"^([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d+)?$"
    return result
