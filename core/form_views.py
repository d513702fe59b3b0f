"""The one way a page hands a form to a service: the service refuses with a ValidationError, and the
page shows its messages on the form, each next to its field or above the form, with the form's own
errors (templates/includes/form_page.html)."""

from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.views.generic import FormView

from .forms import add_service_errors


class ServiceFormMixin:
    """`submit(form)`: `perform(form)` once the form is valid. A page with several forms, or a form
    on another page (a decision, a sign-off), uses it as is; a page of one form, ServiceFormView."""

    refusal: ValidationError | None = None  # the service's, after a refused submit

    def perform(self, form) -> HttpResponse:
        """Call the service with the form's cleaned data and answer (a redirect, with a message).
        A ValidationError raised here is the service's refusal."""
        raise NotImplementedError

    def service_error_aliases(self, form) -> dict[str, str] | None:
        """The form fields the service's error keys name (core.forms.add_service_errors)."""
        return None

    def submit(self, form) -> HttpResponse | None:
        """`perform(form)`'s answer; None when the form or the service refuses, every error then on
        the form (the service's in `refusal`)."""
        self.refusal = None
        if not form.is_valid():
            return None
        try:
            return self.perform(form)
        except ValidationError as error:
            self.refusal = error
            add_service_errors(form, error, self.service_error_aliases(form))
            return None

    def refusal_status(self, default: int = 400) -> int:
        """The status of a refused post: the service's own (403, 409) when it gives one."""
        return getattr(self.refusal, "status_code", default)


class ServiceFormView(ServiceFormMixin, FormView):
    """A page of one form whose valid post goes to a service (`perform`): refused, the page shows
    again with every error, as Django's FormView shows a form's own errors."""

    def form_valid(self, form):
        return self.submit(form) or self.form_invalid(form)
