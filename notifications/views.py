"""The user's own notifications page: the subscription form (tables, monitors, the least severity, by
email and where to), what reaches them while they have not chosen, a "Send a test" button, and their
own webhook endpoints. Thin: services.py saves, sends and refuses; the button posts to a route of its
own (POST only), whose refusal shows this page with the service's message."""

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.shortcuts import redirect
from django.urls import path

from accounts.roles import COMPLIANCE, SUPERVISOR, user_role
from alerts.definitions import DEFINITIONS
from core.form_views import ServiceFormView
from core.views import PermissionRequiredMixin

from . import services
from .choices import Channel
from .forms import ConfirmForm, SubscriptionForm
from .models import WebhookEndpoint
from .tables import choices_summary

VIEW = "notifications.view_subscription"
CHANGE = "notifications.change_subscription"


def role_default(user) -> dict:
    """What reaches the user's role while they have not chosen: its monitors' warnings and every
    critical alert, at every table."""
    role = user_role(user)
    return {
        "role": role if role in (SUPERVISOR, COMPLIANCE) else None,
        "monitors": [d.label for d in DEFINITIONS.values() if d.role == role],
    }


def where_it_went(deliveries) -> str:
    """ "by email to a@b.example and to the webhook Ops (https://…)": the test's deliveries in words."""
    places = [
        f"by email to {delivery.address}"
        if delivery.channel == Channel.EMAIL
        else f"to the webhook {delivery.endpoint.name} ({delivery.address})"
        for delivery in deliveries
    ]
    return ", ".join(places[:-1]) + f" and {places[-1]}" if len(places) > 1 else "".join(places)


class SubscriptionView(LoginRequiredMixin, PermissionRequiredMixin, ServiceFormView):
    permission_required = VIEW
    post_permission_required = CHANGE
    template_name = "notifications/subscription.html"
    form_class = SubscriptionForm
    test_refused = None  # the test's form, refused (SubscriptionTestView)

    def get_initial(self):
        chosen = services.subscription_of(self.request.user)
        self.chosen = chosen
        return {
            "by_email": chosen.by_email,
            "email": chosen.email,
            "tables": [table.code for table in chosen.tables.all()] if chosen.pk else [],
            "monitors": list(chosen.monitors),
            "severity": chosen.severity,
        }

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        user = self.request.user
        chosen = getattr(self, "chosen", None) or services.subscription_of(user)
        context.update(
            title="Your notifications",
            chosen=chosen.pk is not None,
            summary=choices_summary(chosen) if chosen.pk else "",
            default=role_default(user),
            account_email=user.email,
            test_form=self.test_refused or ConfirmForm(prefix="test"),
            endpoints=WebhookEndpoint.objects.filter(owner=user).prefetch_related("tables"),
        )
        context["form"].fields["email"].widget.attrs["placeholder"] = user.email or "name@example.com"
        return context

    def form_invalid(self, form):
        response = super().form_invalid(form)
        response.status_code = self.refusal_status()  # 400, as the lists' refused forms answer
        return response

    def perform(self, form):
        data = form.cleaned_data
        services.subscription_save(
            user=self.request.user,
            by_email=data["by_email"],
            email=data["email"],
            monitors=data["monitors"],
            tables=list(data["tables"]),
            severity=data["severity"],
        )
        messages.success(self.request, "Saved: your notifications follow your choices from now on.")
        return redirect("notifications:subscription")


class SubscriptionTestView(SubscriptionView):
    """POST only: a test message to wherever the user's alerts go (email, their active webhooks)."""

    http_method_names = ["post"]

    def post(self, request, *args, **kwargs):
        form = ConfirmForm(request.POST, prefix="test")
        if answer := self.submit(form):
            return answer
        self.test_refused = form
        response = self.get(request, *args, **kwargs)
        response.status_code = self.refusal_status()
        return response

    def perform(self, form):
        deliveries = services.send_test(user=self.request.user)
        if deliveries:
            messages.success(self.request, f"A test was sent {where_it_went(deliveries)}.")
        else:
            messages.warning(self.request, "Nothing was sent: email is off and you have no active webhook.")
        return redirect("notifications:subscription")


urlpatterns = [
    path("", SubscriptionView.as_view(), name="subscription"),
    path("test/", SubscriptionTestView.as_view(), name="subscription_test"),
]
