"""A public sheet is rendered once per sheet version and kept (issue 43): every `?at=` that names the
same version gets the same bytes and the same ETag without rendering again, If-None-Match answers 304,
and a change of anything the sheet's text reads (limits, configuration version, published RTP, the
table's name, the templates and catalogue) gives a new answer.

Renders are counted, not timed: a page or body rendered shows in the test client's
`response.templates`, a PDF made in the calls of WeasyPrint's `HTML.write_pdf`, and each rendering
kept is a row of sheets.models.KeptSheet.
"""

from datetime import timedelta
from decimal import Decimal
from urllib.parse import quote

import pytest
import weasyprint
from django.core.cache import cache
from django.test import Client
from django.utils import timezone
from freezegun import freeze_time

from limits.services import table_limit_set
from tables.models import ConfigurationOdds, TableConfiguration
from tables.odds import configuration_odds_compute
from tables.services import table_set_status, table_update
from tests.factories import configuration_approved, table, user
from tests.sheets.test_content import numbers_in, read_sheet

pytestmark = pytest.mark.django_db

PAGES = ["/rules/DLX1/", "/rules/DLX1/fil/"]
PDFS = ["/rules/DLX1/pdf/", "/rules/DLX1/fil/pdf/"]
API = ["/api/tables/DLX1/rules/", "/api/tables/DLX1/rules/?lang=fil"]
EVERY_ANSWER = PAGES + PDFS + API


@pytest.fixture
def opened():
    """DLX1 with its odds, its limits and its opening, a day ago: every `?at=` since names one version.
    The moment it was made."""
    moment = timezone.now() - timedelta(days=1)
    with freeze_time(moment):
        dlx = table("DLX1")
        for configuration in TableConfiguration.objects.filter(table=dlx):
            configuration_odds_compute(configuration=configuration)
        table_set_status(table=dlx, status="open", changed_by=user("supervisor"), reason="Shift start")
    return moment


@pytest.fixture
def pdf_renders(monkeypatch) -> list:
    """One item for each PDF WeasyPrint makes."""
    made = []
    write_pdf = weasyprint.HTML.write_pdf

    def counted(self, *args, **kwargs):
        made.append(self)
        return write_pdf(self, *args, **kwargs)

    monkeypatch.setattr(weasyprint.HTML, "write_pdf", counted)
    return made


def get(url: str, at=None, **headers):
    separator = "&" if "?" in url else "?"
    query = "" if at is None else f"{separator}at={at.isoformat().replace('+', '%2B')}"
    return Client().get(url + query, **headers)


def rendered(response) -> bool:
    return bool(response.templates)


def kept_rows() -> int:
    from sheets.models import KeptSheet

    return KeptSheet.objects.count()


@pytest.mark.parametrize("url", EVERY_ANSWER)
def test_every_at_within_one_version_is_one_answer_rendered_once(opened, url, pdf_renders):
    times = [opened + timedelta(hours=hours) for hours in (1, 2, 5, 13, 23)]
    answers = [get(url, at) for at in times]
    assert [answer.status_code for answer in answers] == [200] * len(times)
    assert len({answer.content for answer in answers}) == 1
    etags = {answer.get("ETag") for answer in answers}
    assert len(etags) == 1 and None not in etags
    assert [rendered(answer) for answer in answers] == [True] + [False] * (len(times) - 1)
    assert len(pdf_renders) == (1 if url in PDFS else 0)


@pytest.mark.parametrize("url", EVERY_ANSWER)
def test_the_sheet_now_is_one_answer_rendered_once(opened, url, pdf_renders):
    answers = [get(url) for _ in range(3)]
    assert len({answer.content for answer in answers}) == 1
    assert len({answer.get("ETag") for answer in answers} - {None}) == 1
    assert [rendered(answer) for answer in answers] == [True, False, False]
    assert len(pdf_renders) == (1 if url in PDFS else 0)


def test_each_rendering_is_kept_in_the_database_and_outlives_the_cache(opened, pdf_renders):
    for url in PAGES + PDFS:
        for hours in (1, 3):
            get(url, opened + timedelta(hours=hours))
    assert kept_rows() == 4  # English and Filipino, page and PDF: one row each
    cache.clear()  # a cache outage: what is kept is not in it
    again = [get(url, opened + timedelta(hours=7)) for url in PAGES + PDFS]
    assert not any(rendered(answer) for answer in again)
    assert kept_rows() == 4 and len(pdf_renders) == 2


@pytest.mark.parametrize("url", PAGES + PDFS + API)
def test_if_none_match_with_the_versions_etag_is_304(opened, url):
    first = get(url, opened + timedelta(hours=1))
    etag = first["ETag"]
    later = get(url, opened + timedelta(hours=9), HTTP_IF_NONE_MATCH=etag)
    assert later.status_code == 304 and later.content == b""
    assert later["ETag"] == etag
    assert get(url, opened + timedelta(hours=9), HTTP_IF_NONE_MATCH='"another"').status_code == 200
    now = get(url)
    assert get(url, HTTP_IF_NONE_MATCH=now["ETag"]).status_code == 304


def limits_lowered(dlx):
    table_limit_set(
        table=dlx,
        kind="main",
        min_stake=Decimal("1.00"),
        max_stake=Decimal("100.00"),
        changed_by=user("supervisor"),
        reason="lower limits",
    )


def seats_changed(dlx):
    configuration_approved(dlx, {"seats": 5}, reason="fewer seats")


def rtp_worked_out_again(dlx):
    """The odds engine's method changed: the version's figures are replaced in place."""
    odds = ConfigurationOdds.objects.get(configuration__table=dlx)
    odds.figures["rtp"]["main"] = "98.1234"
    odds.save()


def table_renamed(dlx):
    table_update(table=dlx, changed_by=user("supervisor"), reason="new name", name="Deluxe Blackjack Two")


# Each change, and whether it starts a new version from now (the sheet asked for an earlier time stays
# as it was) or changes what every time's sheet says (the odds and the table's name are read as now).
CHANGES = [
    (limits_lowered, True),
    (seats_changed, True),
    (rtp_worked_out_again, False),
    (table_renamed, False),
]


@pytest.mark.parametrize(("change", "from_now"), CHANGES, ids=[change.__name__ for change, _ in CHANGES])
def test_a_change_of_what_the_sheet_says_is_a_new_answer(opened, change, from_now):
    before = {url: get(url) for url in EVERY_ANSWER}
    earlier = opened + timedelta(hours=2)
    dated = {url: get(url, earlier) for url in EVERY_ANSWER}
    change(table_dlx())
    for url, old in before.items():
        new = get(url)
        assert new.status_code == 200
        assert rendered(new), url
        assert new.content != old.content, url
        assert new["ETag"] != old["ETag"], url
    for url, old in dated.items():
        again = get(url, earlier + timedelta(hours=1))
        if from_now:  # the earlier time still names the old version: its answer, kept
            assert (again.content, again["ETag"], rendered(again)) == (old.content, old["ETag"], False), url
        else:  # read as now: a new answer (the API's body may be the one just made for now)
            assert again.content != old.content and again["ETag"] != old["ETag"], url


def test_a_new_revision_of_the_templates_renders_every_sheet_again(opened, monkeypatch, pdf_renders):
    from sheets import kept

    before = {url: get(url) for url in PAGES + PDFS}
    rows = kept_rows()
    monkeypatch.setattr(kept, "sheet_revision", lambda: "a later revision of the templates")
    after = {url: get(url) for url in PAGES + PDFS}
    assert all(rendered(answer) for answer in after.values())
    assert kept_rows() == rows * 2 and len(pdf_renders) == 4
    assert after[PAGES[0]].content == before[PAGES[0]].content  # the same words, made again


def test_the_three_words_that_vary_the_answer_are_the_language_the_form_and_the_time(opened):
    """English and Filipino, page and PDF, now and at a time asked: each its own answer."""
    answers = [get(url) for url in PAGES + PDFS] + [get(url, opened) for url in PAGES + PDFS]
    assert len({answer.content for answer in answers}) == len(answers)
    assert len({answer["ETag"] for answer in answers}) == len(answers)


def test_two_processes_rendering_one_version_at_once_both_answer_with_one_kept(opened, monkeypatch):
    """Another process stores the same sheet while this one renders it: this one's insert must not
    fail, and both answer with the bytes kept (a PDF made twice differs in its creation time)."""
    from sheets import kept
    from sheets.models import KeptSheet

    render = kept.render
    others = []

    def render_while_another_process_stores_it(*args, **kwargs):
        monkeypatch.setattr(kept, "render", render)
        others.append(get(PDFS[0], opened + timedelta(hours=4)))
        return render(*args, **kwargs)

    monkeypatch.setattr(kept, "render", render_while_another_process_stores_it)
    mine = get(PDFS[0], opened + timedelta(hours=5))
    assert mine.status_code == others[0].status_code == 200
    assert (mine.content, mine["ETag"]) == (others[0].content, others[0]["ETag"])
    assert KeptSheet.objects.filter(form="pdf").count() == 1


def test_the_dated_pages_links_name_its_version(opened):
    """A page asked for a time links its other language and its PDF at the moment its sheet came into
    force (the same links whatever time in the version was asked), and they give that sheet."""
    later = opened + timedelta(hours=2)
    table_limit_set(
        table=table_dlx(),
        kind="main",
        min_stake=Decimal("1.00"),
        max_stake=Decimal("100.00"),
        changed_by=user("supervisor"),
        reason="lower limits",
    )
    page = get(PAGES[0], later)
    assert f'data-at="{opened.isoformat()}"' in page.text
    assert main_max(page) == [500]
    at = quote(opened.isoformat(), safe="")
    links = {f"/rules/DLX1/fil/?at={at}": "fil", f"/rules/DLX1/pdf/?at={at}": "en"}
    for url, language in links.items():
        assert f'href="{url}"' in page.text
        followed = Client().get(url)
        assert followed.status_code == 200 and followed["Content-Language"] == language
    assert main_max(Client().get(f"/rules/DLX1/fil/?at={at}"), "fil") == [500]
    assert main_max(get(PAGES[0])) == [100]


def main_max(response, language="en") -> list:
    return numbers_in(dict(read_sheet(response.text).numbered)["limit:main:max"], language)


def table_dlx():
    from tables.models import Table

    return Table.objects.get(code="DLX1")


def test_the_revision_follows_the_sources_contents_not_their_times(settings, tmp_path):
    """A server whose files were copied at another time has the same revision, so servers share what
    they keep; a changed template is a new revision."""
    import os

    from sheets import kept

    settings.BASE_DIR = tmp_path
    template = tmp_path / "templates" / "sheets" / "body.html"
    template.parent.mkdir(parents=True)
    template.write_text("<p>{{ sheet.version }}</p>")
    first = kept.files_revision()
    os.utime(template, ns=(1, 1))
    assert kept.files_revision() == first
    template.write_text("<p>{{ sheet.version }}.</p>")
    second = kept.files_revision()
    assert second != first
    (tmp_path / "sheets").mkdir()
    (tmp_path / "sheets" / "content.py").write_text("LABELS = {}\n")
    assert kept.files_revision() not in (first, second)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_connections_storing_one_answer_at_once_keep_one_row(opened, monkeypatch):
    """The race for real: two threads, each on its own connection, render the same PDF and insert it at
    the same moment (both renders done before either inserts); neither fails, one row is kept, and
    both answer with its bytes."""
    import threading

    from django.db import connections

    from sheets import kept
    from sheets.models import KeptSheet
    from sheets.opening import public_sheet

    render, both_rendered = kept.render, threading.Barrier(2)

    def render_then_wait(*args):
        content = render(*args)
        both_rendered.wait(timeout=60)
        return content

    monkeypatch.setattr(kept, "render", render_then_wait)
    answers, errors = [], []

    def answer():
        try:
            answers.append(kept.kept_answer(public_sheet(table_dlx()), "en", "pdf", dated=False))
        except Exception as error:  # noqa: BLE001 (reported below, whatever it is)
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=answer) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert len(answers) == 2 and answers[0] == answers[1]
    assert KeptSheet.objects.count() == 1
