"""Pieces every app's API shares: errors, permissions, pagination, money fields."""

from django.core.exceptions import ValidationError as DjangoValidationError
from rest_framework import pagination, permissions, serializers, status
from rest_framework.response import Response
from rest_framework.settings import api_settings


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
    """An amount such as "10.00": a decimal string out; in, a string or a JSON number with at most
    2 decimals (floats are read by their shortest form, so 10.1 is 10.10 and 10.005 is refused)."""

    def __init__(self, **kwargs):
        kwargs.setdefault("max_digits", 14)
        kwargs.setdefault("decimal_places", 2)
        kwargs.setdefault("coerce_to_string", True)
        super().__init__(**kwargs)

    def to_internal_value(self, data):
        if isinstance(data, bool):
            self.fail("invalid")
        return super().to_internal_value(data)


class InputSerializer(serializers.Serializer):
    """A request body: a field this request does not take is an error naming it, not ignored
    (a typo such as `max_stak`, or `game` in a change that cannot change it)."""

    def to_internal_value(self, data):
        if hasattr(data, "keys"):
            unknown = sorted(set(data.keys()) - set(self.fields))
            if unknown:
                known = ", ".join(self.fields)
                raise serializers.ValidationError(
                    {name: [f"Not taken here (this request takes: {known})."] for name in unknown}
                )
        return super().to_internal_value(data)


def validated(serializer_class, request, **kwargs) -> dict:
    """The request body checked by `serializer_class`; HTTP 400 naming the field when it is not."""
    serializer = serializer_class(data=request.data, context={"request": request}, **kwargs)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data
