"""Game recall: the round list, one round card by card, a player's play record. Thin views over
the selectors (reads) and `rounds.review` (the sign-off)."""

import json
from collections import Counter
from types import SimpleNamespace
from urllib.parse import urlencode

from django import forms
from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin, PermissionRequiredMixin
from django.core.paginator import Paginator
from django.db.models import F
from django.http import Http404, HttpResponse, QueryDict
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.views.generic import TemplateView, View

from core.exports import CSV, EXPORT_PARAM, chunked_values, csv_response
from core.form_views import ServiceFormMixin
from core.gaming_day import gaming_day
from core.listing import REFUSED_FILTER, FilteredListView
from core.replica import ReplicaReadsMixin
from core.templatetags.pitboss import zoned_label
from limits.choices import BetKind
from limits.models import Player

from .access import PLAY_RECORDS, ROUND_PAGES, may_open_rounds
from .correction_policy import round_corrections
from .filtersets import BetFilterSet, RoundFilterSet
from .forms import PlayRecordPeriodForm, RoundReviewForm
from .models import SORTED_BY_VALUE, Finding, Round
from .outcome import outcome_expression
from .recall import archived_round, player_archive, player_archived_bets, totals_merged
from .review import round_review
from .selectors import (
    PAGE_SIZE,
    finding_codes_expression,
    keyset_page,
    newest_gaming_day,
    next_in_order,
    play_record_bets,
    play_record_period_totals,
    play_record_totals,
    round_spots,
    shoe_neighbours,
    spots_with_findings,
    with_finding_codes,
)
from .tables import PlayRecordTable, RoundTable
from .templatetags.cards import CardFace, total_text

CURSORS = ("before", "after")
SPOTS_PER_PAGE = 50
SHARED_SPOTS_PER_PAGE = 25  # a shared deal repeats the same cards: fewer players per page
YES_NO_ANY = [("", "Any"), ("true", "Yes"), ("false", "No")]
FILTER_LABELS = {
    "reviewed": "Reviewed",
    "finding": "Finding code",
    "opened_after": zoned_label("Opened from"),
    "opened_before": zoned_label("Opened before"),
    "placed_after": zoned_label("Opened from"),
    "placed_before": zoned_label("Opened before"),
    "differs": "Computed differs",
    "game": "Game",
}


def tidy_filter_form(form) -> None:
    """Plain labels for the generated filter fields, and "Any" rather than "Unknown"."""
    for name, field in form.fields.items():
        if name in FILTER_LABELS:
            field.label = FILTER_LABELS[name]
        if isinstance(field.widget, forms.NullBooleanSelect):
            field.widget = forms.Select(choices=YES_NO_ANY)


def _query_without(params, *names, **extra) -> str:
    query = params.copy()
    for name in names:
        query.pop(name, None)
    for name, value in extra.items():
        query[name] = value
    return query.urlencode()


def keyset_links(params, page) -> dict:
    """The newer/older/newest links of a keyset page, keeping the filters."""
    return {
        "newer_query": _query_without(params, *CURSORS, after=page.newer) if page.newer else None,
        "older_query": _query_without(params, *CURSORS, before=page.older) if page.older else None,
        "newest_query": None if page.is_first else _query_without(params, *CURSORS),
    }


# The round list's orders, by ?sort= (django-tables2's sort links), each ending with the id so that
# its keyset pages hold. Newest played first unless asked otherwise; a table's rounds newest first.
# By time played, the gaming day comes first: the same order, in which PostgreSQL reads a page from
# its month's partition alone (rounds.selectors.keyset_page's month_field).
ROUND_ORDERS = {
    "-opened_at": ("-gaming_day", "-opened_at", "-id"),
    "opened_at": ("gaming_day", "opened_at", "id"),
    "table": ("table__code", "-opened_at", "-id"),
    "-table": ("-table__code", "-opened_at", "-id"),
    **{
        sort: (sort, "-id" if sort.startswith("-") else "id")
        for name in SORTED_BY_VALUE
        for sort in (name, f"-{name}")
    },
}
NEWEST_PLAYED_FIRST = "-opened_at"


def exported_rounds(rounds, order: tuple[str, ...]):
    """The round list's export rows of `rounds` (the list's queryset, filtered) in `order`: each the
    dict of what the exported columns of RoundTable read (their accessors name fields and annotations
    of the list's queryset), no model instance a row. Read by the list's CSV and XLSX and by the
    regulator's pack of a day."""
    columns = RoundTable([]).columns.iterall()
    exported = [column.accessor for column in columns if not column.column.exclude_from_export]
    rows = rounds.annotate(finding_codes_text=finding_codes_expression())
    return rows.order_by(*order).values(*exported)


class RoundListView(FilteredListView):
    """Newest played first, or in the order of a sortable column, one keyset page at a time:
    never a COUNT, never an OFFSET."""

    permission_required = ROUND_PAGES
    # What the columns show (and the CSV export): never a round's document, up to 2 MB of JSON.
    # A column needing another field costs a query per row: the query count is pinned in a test.
    # The outcome is worked out in the same query (a join on the round's correction). The table's
    # code and currency and the shoe's code are columns of the row, not objects made for each row:
    # a day's CSV of 1,050 rounds made 3,150 instances, a fifth of its time.
    queryset = (
        Round.objects.select_related("reviewed_by")
        .annotate(
            outcome=outcome_expression(),
            table_code=F("table__code"),
            currency=F("table__currency"),
            shoe_code=F("shoe__code"),
        )
        .only(
            "round_id",
            "table",
            "number",
            "dealt_by",
            "opened_at",
            "gaming_day",
            "status",
            "players",
            "wagered",
            "returned",
            "finding_count",
            "reviewed_at",
            "reviewed_by__username",
        )
    )
    filterset_class = RoundFilterSet
    table_class = RoundTable
    table_pagination = False
    template_name = "rounds/round_list.html"
    title = "Rounds"
    export_name = "rounds"
    export_in_chunks = True  # get_table_data() is in the export's order
    per_page = PAGE_SIZE

    def get_filterset(self, filterset_class):
        filterset = super().get_filterset(filterset_class)
        tidy_filter_form(filterset.form)
        return filterset

    def sort(self) -> str:
        sort = self.request.GET.get("sort", "")
        return sort if sort in ROUND_ORDERS else NEWEST_PLAYED_FIRST

    def order(self) -> tuple[str, ...]:
        return ROUND_ORDERS[self.sort()]

    def get_table_data(self):
        if self.exporting():
            return exported_rounds(self.object_list, self.order())
        if not hasattr(self, "keyset"):
            rows = self.object_list
            if any(key.lstrip("-").startswith("table__") for key in self.order()):
                rows = rows.select_related("table")  # the page's cursors hold its rows' table codes
            self.keyset = keyset_page(
                rows,
                self.request.GET,
                order=self.order(),
                per_page=self.per_page,
                month_field="gaming_day",
                first_day=newest_gaming_day() if self.order()[0] == "-gaming_day" else None,
                by_related=True,  # sorted by table: a table at a time, from its index
            )
            with_finding_codes(self.keyset.rows)
        return self.keyset.rows

    def get_table_kwargs(self):
        # The rows come in the order asked for; the header shows it even when ?sort= is unset.
        return {"order_by": self.sort()}

    def get_table(self, **kwargs):
        table = super().get_table(**kwargs)
        # Each round's link carries the list (filters and order, no page) for "Sign off and next".
        table.list_query = _query_without(self.request.GET, *CURSORS, "_export")
        return table

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        params = self.request.GET
        context["export_query"] = _query_without(params, "page", *CURSORS, _export="csv")
        if hasattr(self, "keyset"):
            context.update(keyset_links(params, self.keyset))
        return context


class RoundMixin(ReplicaReadsMixin, LoginRequiredMixin, PermissionRequiredMixin):
    # A view that shows a round also finds one whose month is archived (rounds.recall): read back
    # from the archive with its rows (`recall_rows`) or its document alone. None: the database only.
    recall_rows: bool | None = None
    recalled = None  # the RecalledRound, when the round came from the archive

    def round_queryset(self):
        return Round.objects.select_related("table", "shoe", "configuration", "reviewed_by")

    def get_round(self) -> Round:
        if not hasattr(self, "_round"):
            try:
                self._round = get_object_or_404(self.round_queryset().by_round_id(self.kwargs["round_id"]))
            except Http404:
                if self.recall_rows is None:
                    raise
                self.recalled = archived_round(self.kwargs["round_id"], rows=self.recall_rows)
                if self.recalled is None:
                    raise
                self._round = self.recalled.round
        return self._round


class RoundDetailView(RoundMixin, TemplateView):
    permission_required = ROUND_PAGES
    template_name = "rounds/round_detail.html"
    recall_rows = True

    def round_queryset(self):
        # The page shows the round's outcome, and its spots from its document; its correction is read
        # with it, for the correction policy (rounds.correction_policy.round_corrections).
        return super().round_queryset().annotate(outcome=outcome_expression()).select_related("correction")

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        round_ = self.get_round()
        recalled = self.recalled  # an archived round: its rows as read back from the archive
        if recalled is not None:
            findings = recalled.findings
        else:
            # Findings are written with their round, and counted on it: most rounds have none.
            findings = (
                list(Finding.objects.of_round(round_).select_related("bet").order_by("id"))
                if round_.finding_count
                else []
            )
        spots = round_.dealt_spots
        only_findings = self.request.GET.get("findings") == "1"
        if only_findings:
            named = [f.bet for f in findings if f.bet_id] if recalled else None
            wanted = spots_with_findings(round_, findings, named)
            spots = spots.named(wanted)
        shared = round_.shared or None
        paginator = Paginator(spots, SHARED_SPOTS_PER_PAGE if shared else SPOTS_PER_PAGE)
        spot_page = paginator.get_page(self.request.GET.get("spots"))
        shown = list(spot_page.object_list)
        # An archived round's bets: the page's alone, read back as the database's are read.
        bets = recalled.bets_of(shown) if recalled is not None else None
        spot_views = round_spots(round_, shown, findings, bets=bets)
        if findings and paginator.num_pages > 1:
            _link_findings_to_their_pages(findings, spots, spot_page, self.request.GET)
        previous, following = shoe_neighbours(round_)
        if recalled is not None:  # its shoe's other rounds of the month are archived with it
            previous, following = recalled.previous or previous, recalled.following or following
        dealer = round_.dealer_cards.split()
        context.update(
            round=round_,
            table=round_.table,
            currency=round_.table.currency,
            findings=findings,
            finding_codes=Counter(f.code for f in findings).most_common(),
            spots=spot_views,
            spot_page=spot_page,
            spot_paginated=paginator.num_pages > 1,
            only_findings=only_findings,
            shared=shared,
            shared_draws=[
                CardFace(card, draw=n) for n, card in enumerate((shared or {}).get("draws", []), 1)
            ],
            dealer=dealer,
            dealer_total=total_text(dealer),
            hole_card=round_.table.game != "multiplayer",
            previous=previous,
            following=following,
            # An archived round is signed off once its month is restored (its row is not here).
            can_review=recalled is None and self.request.user.has_perm("rounds.review_round"),
            recalled=recalled,
            corrections=round_corrections(round_, recalled=recalled),
            list_query=self.request.GET.get("list", "") or self.request.POST.get("list", ""),
        )
        context.setdefault("review_form", RoundReviewForm())
        return context


def _link_findings_to_their_pages(findings, spots, spot_page, params) -> None:
    """Give each finding the query of the page of spots that holds its spot or bet (`page_query`,
    empty on this page): on a round of many pages a finding's bet is rarely on the page shown."""
    per_page = spot_page.paginator.per_page
    page_of_spot = {code: index // per_page + 1 for index, code in enumerate(spots.codes())}
    for finding in findings:
        page = page_of_spot.get(finding.spot or (finding.bet.spot if finding.bet else None))
        finding.page_query = (
            "?" + _query_without(params, "spots", spots=page) if page and page != spot_page.number else ""
        )


class RoundDocumentView(RoundMixin, View):
    """The round document as received, indented; the round page fetches it when it is opened (an
    archived round's from the archive)."""

    permission_required = ROUND_PAGES
    recall_rows = False

    def get(self, request, *args, **kwargs):
        text = json.dumps(self.get_round().document, indent=2, ensure_ascii=False)
        return HttpResponse(text, content_type="application/json")


class RoundReviewView(ServiceFormMixin, RoundDetailView):
    """POST only: sign the round off; on a refusal the round page shows why beside the form."""

    permission_required = (ROUND_PAGES, "rounds.review_round")
    http_method_names = ["post"]
    recall_rows = None  # an archived round is not signed off: its row is not in the database

    def post(self, request, *args, **kwargs):
        form = RoundReviewForm(request.POST)
        return self.submit(form) or self.render_to_response(
            self.get_context_data(review_form=form), status=400
        )

    def perform(self, form):
        round_, request = self.get_round(), self.request
        round_review(round_=round_, reviewed_by=request.user, comment=form.cleaned_data["comment"])
        messages.success(request, f"Round {round_.round_id} signed off as reviewed.")
        list_query = request.POST.get("list", "")
        if "next" in request.POST:
            return self.next_round(round_, list_query)
        return redirect(
            round_.get_absolute_url() + (f"?{urlencode({'list': list_query})}" if list_query else "")
        )

    def next_round(self, round_, list_query: str):
        """The round after this one in the list it was opened from (its filters and order), with the
        same list; the list itself after its last round."""
        params = QueryDict(list_query)
        filterset = RoundFilterSet(params, queryset=RoundListView.queryset)
        rounds = filterset.qs if filterset.is_valid() else RoundListView.queryset
        following = next_in_order(
            rounds, round_, ROUND_ORDERS.get(params.get("sort", ""), ROUND_ORDERS[NEWEST_PLAYED_FIRST])
        )
        if following is None:
            messages.info(self.request, "That was the last round of the list.")
            return redirect(f"{reverse('rounds:round_list')}?{list_query}")
        return redirect(following.get_absolute_url() + f"?{urlencode({'list': list_query})}")


# The play record's CSV of the period's archived bets: `?_export=csv&bets=archived`.
BETS_PARAM, ARCHIVED_BETS = "bets", "archived"


class PlayRecordView(LoginRequiredMixin, PermissionRequiredMixin, TemplateView):
    """A player's totals over a period and their bets, filtered, newest first: as a page, or as a
    CSV of every bet the filter lists in the database (`?_export=csv`), or of every bet of the
    period in archived months (`?_export=csv&bets=archived`, the filter does not apply there)."""

    permission_required = PLAY_RECORDS
    template_name = "rounds/play_record.html"
    per_page = PAGE_SIZE
    archived_shown = 500  # the newest archived bets of the period listed (all are in its totals)
    order = ("-round__opened_at", "-id")

    def get(self, request, *args, **kwargs):
        player = self.player()
        filtered = self.filtered(player)
        refused = not filtered.filterset.is_valid()
        if request.GET.get(EXPORT_PARAM) == CSV:
            archived = request.GET.get(BETS_PARAM) == ARCHIVED_BETS
            period_form = PlayRecordPeriodForm(request.GET)
            if archived and period_form.is_valid():
                first, last = period_form.period()
                values = chunked_values(self.csv_table, player_archived_bets(player, first, last))
                return csv_response(values, f"play-record-{player.external_id}-archived-{first}-{last}.csv")
            if not archived and not refused:
                values = chunked_values(self.csv_table, filtered.bets.order_by(*self.order))
                return csv_response(values, f"play-record-{player.external_id}.csv")
            # A refused filter or period shows the page with the field's error: a CSV of no bets
            # said nothing of why.
            refused = True
        context = self.get_context_data(player=player, filtered=filtered)
        return self.render_to_response(context, status=400 if refused else 200)

    @staticmethod
    def csv_table(rows) -> PlayRecordTable:
        return PlayRecordTable(rows, order_by=None)

    def player(self) -> Player:
        return get_object_or_404(Player, external_id=self.kwargs["external_id"])

    def filtered(self, player) -> SimpleNamespace:
        """The bet filter's form (for the page) and the bets it lists (none while it is invalid)."""
        data = self.request.GET.copy()
        data["player"] = player.external_id  # the page's player, whatever the query says
        filterset = BetFilterSet(data, queryset=play_record_bets(player))
        filterset.form.fields["kind"].widget = forms.Select(choices=[("", "Any")] + BetKind.choices)
        tidy_filter_form(filterset.form)
        bets = filterset.qs if filterset.is_valid() else filterset.queryset.none()
        return SimpleNamespace(filterset=filterset, bets=bets)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        player, filtered = kwargs["player"], kwargs["filtered"]
        params = self.request.GET
        filterset = filtered.filterset
        page = keyset_page(filtered.bets, params, order=self.order, per_page=self.per_page)
        period_form = PlayRecordPeriodForm(params or None)
        first, last = period_form.period() if period_form.is_bound else period_form.default_period()
        if not period_form.is_bound:
            period_form = PlayRecordPeriodForm(initial={"first": first, "last": last})
        rule = gaming_day(last)
        totals = play_record_totals(player, first, last)
        period_totals = play_record_period_totals(player, first, last)
        # A period that reaches into archived months: their bets read back from the archive, listed
        # apart (newest first) and counted in the totals.
        archive = player_archive(player, first, last, limit=self.archived_shown)
        if archive is not None:
            totals = totals_merged(totals, archive.totals, keys=("day", "kind", "currency"))
            period_totals = totals_merged(period_totals, archive.totals, keys=("currency",))
        context.update(
            player=player,
            filter_fields=[field for field in filterset.form if field.name != "player"],
            filterset=filterset,
            table=PlayRecordTable(
                page.rows,
                empty_text=None if filterset.is_valid() else REFUSED_FILTER,
                round_pages=may_open_rounds(self.request.user),
            ),
            period_form=period_form,
            first=first,
            last=last,
            totals=totals,
            period_totals=period_totals,
            archive=archive,
            archive_table=(
                PlayRecordTable(archive.bets, round_pages=may_open_rounds(self.request.user))
                if archive is not None
                else None
            ),
            gaming_day_zone=rule.time_zone,
            cutoff=f"{rule.cutoff:%H:%M}",
            export_query=_query_without(params, *CURSORS, **{EXPORT_PARAM: CSV}),
            archived_export_query=_query_without(
                params,
                *CURSORS,
                first=first.isoformat(),
                last=last.isoformat(),
                **{EXPORT_PARAM: CSV, BETS_PARAM: ARCHIVED_BETS},
            ),
            **keyset_links(params, page),
        )
        return context
