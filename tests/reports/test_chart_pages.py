"""The report pages show the charts their run stored, each served as it was drawn (an <img> of
/reports/charts/<id>.svg): a page request draws nothing and keeps its query count."""

from datetime import date, timedelta
from decimal import Decimal

import pytest
from django.urls import reverse
from matplotlib.figure import Figure

from reports.charts import PatternHits, TrendPoint, pattern_hits_svg, rtp_trend_svg
from reports.models import ReportChart, ReportRun
from tests import factories

pytestmark = pytest.mark.django_db
DAY = date(2026, 11, 28)


def stored_chart(run: ReportRun, table, *, subject="trend", kind="main", window=30, drawn=None, **fields):
    svg, width, height = ("", 0, 0) if drawn is None else (drawn.svg, drawn.width, drawn.height)
    defaults = {"days": 1 if drawn is None else 2, "position": 0, "title": f"{table.code} {kind} {window}"}
    return ReportChart.objects.create(
        run=run,
        subject=subject,
        table=table,
        kind=kind,
        window_days=window,
        description=f"What {table.code} {kind} over {window} days shows.",
        svg=svg,
        width=width,
        height=height,
        **(defaults | fields),
    )


@pytest.fixture
def charted(settings, tmp_path):
    """A run with the stored rows of tests.factories.report_rows and charts of its own: DLX1's main bet
    over 30 and 90 days, a one-day message for its Play behind, its Pair's hits."""
    settings.PITBOSS_REPORTS_DIR = tmp_path
    dlx = factories.table("DLX1")
    rows = factories.report_rows(dlx, tmp_path, day=DAY)
    run = ReportRun.objects.get(pk=rows["reportrun"])
    ReportChart.objects.filter(run=run).delete()  # the factory's own, replaced by drawn ones
    points = [
        TrendPoint(
            day=DAY - timedelta(days=1 - back), observed=Decimal(value), low=Decimal(90), high=Decimal(110)
        )
        for back, value in enumerate(("98.5", "101.2"))
    ]
    trend = rtp_trend_svg(points, title="DLX1 Main: RTP")
    charts = {
        "trend_30": stored_chart(run, dlx, drawn=trend, title="DLX1 Main: RTP, 30 gaming days"),
        "trend_90": stored_chart(run, dlx, window=90, drawn=trend, title="DLX1 Main: RTP, 90 gaming days"),
        "one_day": stored_chart(
            run, dlx, kind="behind", position=1, title="DLX1 Play behind: RTP", message="One gaming day only."
        ),
        "hits": stored_chart(
            run,
            dlx,
            subject="hits",
            kind="pair",
            window=1,
            drawn=pattern_hits_svg([PatternHits("Mixed pair", 3, 2.5, "2.50")], title="DLX1 Pair: hits"),
        ),
    }
    return {"run": run, **charts}


@pytest.fixture
def compliance(client):
    client.force_login(factories.user("compliance"))
    return client


def chart_image(chart: ReportChart) -> str:
    return (
        f'<img src="{reverse("reports:chart", args=[chart.pk])}" width="{chart.width}" '
        f'height="{chart.height}" alt="{chart.description}" loading="lazy">'
    )


def test_the_daily_report_shows_the_runs_30_day_trends_and_links_the_90_day_ones(charted, compliance):
    page = compliance.get(reverse("reports:daily_report")).content.decode()
    assert chart_image(charted["trend_30"]) in page
    assert reverse("reports:chart", args=[charted["trend_90"].pk]) not in page
    assert "One gaming day only." in page and "DLX1 Play behind: RTP" in page  # the message, as text
    assert 'href="?trend=30#trend" aria-current="true"' in page and 'href="?trend=90#trend"' in page

    page = compliance.get(
        reverse("reports:daily_report"), {"trend": "90", "day": "2026-11-28"}
    ).content.decode()
    assert chart_image(charted["trend_90"]) in page
    assert reverse("reports:chart", args=[charted["trend_30"].pk]) not in page
    assert "RTP trend, 90 gaming days to 2026-11-28" in page
    assert 'href="?trend=90&amp;day=2026-11-28#trend" aria-current="true"' in page


def test_a_window_not_offered_shows_the_first(charted, compliance):
    page = compliance.get(reverse("reports:daily_report"), {"trend": "7"}).content.decode()
    assert chart_image(charted["trend_30"]) in page and "RTP trend, 30 gaming days" in page


def test_the_trends_follow_the_filter(charted, compliance):
    page = compliance.get(reverse("reports:daily_report"), {"kind": "behind"}).content.decode()
    assert "One gaming day only." in page and chart_image(charted["trend_30"]) not in page
    page = compliance.get(reverse("reports:daily_report"), {"table": "CLS1"}).content.decode()
    assert "No trend for these rows." in page


def test_filtering_keeps_the_trend_window_and_the_sort(charted, compliance):
    """The filter form sends the window and the order shown with it, not only its own fields."""
    page = compliance.get(
        reverse("reports:daily_report"), {"trend": "90", "sort": "-handle", "kind": "main"}
    ).content.decode()
    form = page.split('<form method="get" class="filters">', 1)[1].split("</form>", 1)[0]
    assert '<input type="hidden" name="trend" value="90">' in form
    assert '<input type="hidden" name="sort" value="-handle">' in form
    assert 'name="kind"' in form  # a field of the filter itself, not kept twice
    assert form.count('name="kind"') == 1


def test_the_exposure_report_shows_each_options_hits_chart(charted, compliance):
    page = compliance.get(reverse("reports:exposure_report")).content.decode()
    assert chart_image(charted["hits"]) in page


def test_a_page_request_draws_nothing_and_keeps_its_query_count(
    charted, compliance, monkeypatch, django_assert_max_num_queries
):
    def drawn(*args, **kwargs):
        raise AssertionError("a page request drew a chart")

    monkeypatch.setattr(Figure, "savefig", drawn)
    before = ReportChart.objects.count()
    for name, query, pin in (
        ("reports:daily_report", {}, 11),
        ("reports:daily_report", {"trend": "90"}, 11),  # one of them the run's charts of the window
        ("reports:exposure_report", {}, 10),  # one of them the run's hits charts
    ):
        with django_assert_max_num_queries(pin):
            assert compliance.get(reverse(name), query).status_code == 200
    with django_assert_max_num_queries(4):  # session, user, the chart, the user's role
        assert compliance.get(reverse("reports:chart", args=[charted["trend_30"].pk])).status_code == 200
    assert ReportChart.objects.count() == before


def test_a_chart_is_served_as_stored_and_kept_by_the_browser(charted, compliance):
    chart = charted["trend_30"]
    response = compliance.get(reverse("reports:chart", args=[chart.pk]))
    assert response.status_code == 200 and response["Content-Type"] == "image/svg+xml"
    assert response.content.decode() == chart.svg
    assert set(response["Cache-Control"].split(", ")) == {"private", "max-age=31536000", "immutable"}
    assert response["Content-Security-Policy"] == "default-src 'none'; style-src 'unsafe-inline'"


def test_a_message_instead_of_a_chart_and_a_chart_not_stored_are_not_found(charted, compliance):
    assert compliance.get(reverse("reports:chart", args=[charted["one_day"].pk])).status_code == 404
    assert compliance.get(reverse("reports:chart", args=[charted["hits"].pk + 100])).status_code == 404


def test_a_chart_needs_the_permission_of_its_report_page(charted, client):
    from django.contrib.auth.models import Permission

    trend, hits = (reverse("reports:chart", args=[charted[name].pk]) for name in ("trend_30", "hits"))
    assert client.get(trend).status_code == 302  # to the login page
    client.force_login(factories.user("customer_service"))
    assert client.get(trend).status_code == 403
    reader = factories.user("customer_service", username="figures-reader")
    reader.user_permissions.add(Permission.objects.get(codename="view_dailyfigures"))
    client.force_login(reader)
    assert client.get(trend).status_code == 200 and client.get(hits).status_code == 403


def test_a_run_of_figures_only_says_it_has_no_charts(charted, compliance):
    ReportChart.objects.all().delete()
    ReportRun.objects.filter(pk=charted["run"].pk).update(figures_only=True)
    page = compliance.get(reverse("reports:daily_report")).content.decode()
    assert f"Run {charted['run'].pk} stored its figures only: no charts, no PDFs." in page
    page = compliance.get(reverse("reports:exposure_report")).content.decode()
    assert f"Run {charted['run'].pk} stored its figures only: no chart." in page
