"""The players' rule sheets as pages and PDFs.

`/rules/<code>/` (English) and `/rules/<code>/fil/` are public: players read them and game clients link
to them, so they need no sign-in (the portal's only public pages). `?at=<ISO 8601 time>` shows the sheet
in force then. `/rules/<code>/versions/<n>/` shows a version as its sheet would read (a proposal's
preview), to staff who may read configurations. Only the sheet is translated (translation.override
around its rendering): the portal stays English. The public pages are throttled per client address
(sheets/throttle.py); the staff previews are not.
"""

from django.conf import settings
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.middleware.http import ConditionalGetMiddleware
from django.shortcuts import render
from django.utils.decorators import decorator_from_middleware, method_decorator
from django.views import View

from core.filters import UtcDateTimeField
from core.views import PermissionRequiredMixin
from tables.models import Table

from .content import SHEET_LANGUAGES, NoSheet, RuleSheet, sheet_of_version
from .kept import kept_answer, page_html
from .models import KeptSheet
from .opening import NotOpenYet, public_sheet
from .pdf import sheet_pdf_name
from .throttle import seconds_to_wait

PROBLEM_TEMPLATE = "sheets/problem.html"


class SheetProblem(Exception):
    """Why a sheet cannot be shown: an HTTP status, and a message (naming `field` when a query value
    is wrong)."""

    def __init__(self, status: int, title: str, message: str, field: str = ""):
        super().__init__(message)
        self.status, self.title, self.message, self.field = status, title, message, field


def sheet_language(lang: str | None) -> str:
    """The language of a sheet's URL: English without one, else one of SHEET_LANGUAGES other than
    English (one URL a sheet)."""
    if lang is None:
        return SHEET_LANGUAGES[0]
    if lang in SHEET_LANGUAGES[1:]:
        return lang
    raise SheetProblem(404, "No such language", f"There is no rule sheet in {lang!r}.")


def requested_time(request):
    """`?at=`: an ISO 8601 time (without an offset: read in the active time zone); None without it."""
    text = request.GET.get("at")
    if text is None or text == "":
        return None
    try:
        at = UtcDateTimeField().clean(text)
    except ValidationError as error:
        raise SheetProblem(
            400,
            "Bad time",
            f"{' '.join(error.messages)} Give an ISO 8601 time, such as 2026-03-01T15:05Z.",
            "at",
        ) from None
    return at


def public_table(code: str) -> Table:
    table = Table.objects.filter(code=code).first()
    if table is None:
        raise SheetProblem(404, "No such table", f"There is no table {code}.")
    return table


def problem_response(request, problem: SheetProblem) -> HttpResponse:
    context = {"title": problem.title, "message": problem.message, "field": problem.field}
    return render(request, PROBLEM_TEMPLATE, context, status=problem.status)


def too_many_requests(request, seconds: int) -> HttpResponse:
    """429: the address asked for more than PITBOSS_SHEET_REQUESTS_PER_MINUTE this minute."""
    rate = settings.PITBOSS_SHEET_REQUESTS_PER_MINUTE
    problem = SheetProblem(
        429,
        "Too many requests",
        f"This address has asked for rule sheets more often than {counted(rate, 'time')} a minute. "
        f"Try again in {counted(seconds, 'second')}.",
    )
    response = problem_response(request, problem)
    response["Retry-After"] = str(seconds)
    return response


def counted(number: int, word: str) -> str:
    return f"{number} {word}" if number == 1 else f"{number} {word}s"


class PublicSheetView(View):
    """A sheet in force, public: GET (and HEAD) only, throttled per client address (every method)."""

    http_method_names = ["get", "head", "options"]

    def dispatch(self, request, *args, **kwargs):
        seconds = seconds_to_wait(request)
        if seconds is not None:
            return too_many_requests(request, seconds)
        return super().dispatch(request, *args, **kwargs)

    # ConditionalGetMiddleware on this view alone: If-None-Match naming the ETag set below answers 304.
    @method_decorator(decorator_from_middleware(ConditionalGetMiddleware))
    def get(self, request, code: str, lang: str | None = None):
        try:
            language = sheet_language(lang)
            at = requested_time(request)
            table = public_table(code)
            try:
                public = public_sheet(table, at)
            except NoSheet:
                when = at.isoformat() if at else "this time"
                raise SheetProblem(
                    404, "No rules in force", f"{table.code} had no rules in force at {when}."
                ) from None
            except NotOpenYet as error:
                raise SheetProblem(404, "Not open yet", str(error)) from None
        except SheetProblem as problem:
            return problem_response(request, problem)
        answer = kept_answer(public, language, self.form, dated=at is not None)
        response = self.respond(public.sheet, language, answer.content)
        response["Content-Language"] = language
        response["ETag"] = answer.etag
        return response

    form: str

    def respond(self, sheet: RuleSheet, language: str, content: bytes) -> HttpResponse:
        raise NotImplementedError


class SheetPageView(PublicSheetView):
    form = KeptSheet.Form.PAGE

    def respond(self, sheet, language, content):
        return HttpResponse(content)


class SheetPdfView(PublicSheetView):
    form = KeptSheet.Form.PDF

    def respond(self, sheet, language, content):
        response = HttpResponse(content, content_type="application/pdf")
        response["Content-Disposition"] = f'inline; filename="{sheet_pdf_name(sheet, language)}"'
        return response


class VersionPreviewView(LoginRequiredMixin, PermissionRequiredMixin, View):
    """A version's sheet as it reads (a proposal: as it would read once approved), with the limits now;
    `?lang=fil` in Filipino."""

    permission_required = "tables.view_tableconfiguration"

    def get(self, request, code: str, version: int):
        try:
            table = public_table(code)
            configuration = table.configurations.filter(version=version).first()
            if configuration is None:
                raise SheetProblem(404, "No such version", f"{table.code} has no version {version}.")
            lang = request.GET.get("lang") or SHEET_LANGUAGES[0]
            language = lang if lang in SHEET_LANGUAGES else sheet_language(lang)
            try:
                sheet = sheet_of_version(configuration)
            except NoSheet as error:
                raise SheetProblem(404, "No sheet yet", str(error)) from None
        except SheetProblem as problem:
            return problem_response(request, problem)
        response = HttpResponse(page_html(sheet, language))
        response["Content-Language"] = language
        return response
