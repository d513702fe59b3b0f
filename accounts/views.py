from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.shortcuts import redirect
from django.urls import reverse
from django.utils import timezone

from core.form_views import ServiceFormView
from core.views import PAGE_METHODS

from .forms import PreferencesForm
from .services import time_zone_set
from .time_zones import default_time_zone


class PreferencesView(LoginRequiredMixin, ServiceFormView):
    """A signed-in user's own preferences (their time zone): no permission, nobody else's."""

    http_method_names = PAGE_METHODS
    template_name = "accounts/preferences.html"
    form_class = PreferencesForm

    def get_form_kwargs(self):
        return {**super().get_form_kwargs(), "now": timezone.now()}

    def get_initial(self):
        # The zone this request is shown in: the user's, from their session (no query).
        return {"time_zone": timezone.get_current_timezone_name()}

    def get_context_data(self, **kwargs):
        return super().get_context_data(now=timezone.now(), default_time_zone=default_time_zone(), **kwargs)

    def perform(self, form):
        time_zone = form.cleaned_data["time_zone"]
        time_zone_set(user=self.request.user, time_zone=time_zone, session=self.request.session)
        messages.success(self.request, f"Times are now shown in {time_zone}.")
        return redirect(reverse("accounts:preferences"))
