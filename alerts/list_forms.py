"""A form on a list page whose POST has a route of its own: a valid one goes to a service and redirects
back to the list; a refusal shows the list with the form and the service's message."""

from core.form_views import ServiceFormMixin


class ListFormMixin(ServiceFormMixin):
    """On a FilteredListView: `bound_form()` reads the POST; the refused form is kept as
    `refused_form` for `get_context_data`."""

    refused_form = None

    def bound_form(self):
        raise NotImplementedError

    def post(self, request, *args, **kwargs):
        form = self.bound_form()
        if answer := self.submit(form):
            return answer
        self.refused_form = form
        response = self.get(request, *args, **kwargs)
        response.status_code = self.refusal_status()
        return response
