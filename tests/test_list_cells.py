"""The cells of the round, play record and limits lists are drawn by templates/cells/ (and the
shared components): each branch of each cell is the markup it was when Python wrote it, and the
same rows export plain data, never markup."""

from datetime import UTC, datetime
from decimal import Decimal

from django.contrib.auth import get_user_model
from django.utils import timezone

from core.money import money
from core.templatetags.pitboss import local_time
from limits.models import PersonalLimit, Player, TableLimit
from limits.tables import PersonalLimitTable, PlayerTable, TableLimitTable
from rounds.models import Bet, Round, Shoe
from rounds.tables import PlayRecordTable, RoundTable
from tables.models import Table

OPENED = datetime(2026, 3, 1, 14, 5, tzinfo=UTC)


def cells(table, name: str) -> list[str]:
    return [str(row.get_cell(name)) for row in table.rows]


def exported(table, name: str) -> list:
    """The column's values as django-tables2 exports them (CSV)."""
    header, *rows = table.as_values()
    return [row[header.index(table.columns[name].header)] for row in rows]


def dlx1() -> Table:
    return Table(code="DLX1", game="deluxe", currency="EUR")


def a_round(round_id="R-1", *, outcome="completed", finding_count=0, reviewed_by=None, **fields) -> Round:
    table = dlx1()
    row = Round(
        round_id=round_id,
        table=table,
        shoe=Shoe(code="DLX1-S1", table=table),
        number=3,
        opened_at=OPENED,
        status="completed",
        players=2,
        wagered=Decimal("10.00"),
        returned=Decimal("12.50"),
        finding_count=finding_count,
        reviewed_by=reviewed_by,
        reviewed_at=OPENED if reviewed_by else None,
        # A stored round's value (an unsaved one would hold the column's database default, an expression).
        **{"dealt_by": "", **fields},
    )
    # The list's annotations (rounds.views.RoundListView.queryset).
    row.outcome = outcome
    row.table_code, row.currency, row.shoe_code = table.code, table.currency, row.shoe.code
    return row


def test_the_round_list_cells_are_drawn_as_before():
    reviewer = get_user_model()(username='Anna <"A">')
    rows = [
        a_round("R-1"),
        a_round("R 2", outcome="voided", finding_count=2),
        a_round("R-3", outcome="resettled", finding_count=1, reviewed_by=reviewer),
        a_round("R-4", finding_count=2),
    ]
    table = RoundTable(rows)
    assert cells(table, "round_id") == [
        '<a href="/rounds/R-1/">R-1</a>',
        '<a href="/rounds/R%202/">R 2</a>',
        '<a href="/rounds/R-3/">R-3</a>',
        '<a href="/rounds/R-4/">R-4</a>',
    ]
    assert cells(table, "opened_at") == [local_time(OPENED)] * 4
    assert local_time(OPENED) == (
        '<time datetime="2026-03-01T14:05:00+00:00" title="2026-03-01 14:05 UTC">2026-03-01 14:05 UTC</time>'
    )
    assert cells(table, "outcome") == [
        '<span class="badge badge-completed">Completed</span>',
        '<span class="badge badge-voided">Voided</span>',
        '<span class="badge badge-resettled">Re-settled</span>',
        '<span class="badge badge-completed">Completed</span>',
    ]
    assert cells(table, "finding_count") == [
        '<span class="subtle">0</span>',
        '<span class="badge badge-finding">2</span>',
        '<span class="badge badge-finding">1</span>',
        '<span class="badge badge-finding">2</span>',
    ]
    assert cells(table, "reviewed") == [
        '<span class="subtle">—</span>',
        '<span class="badge badge-to-review">to review</span>',
        '<span class="badge badge-reviewed" title="Anna &lt;&quot;A&quot;&gt; at 2026-03-01 14:05 UTC">'
        "reviewed</span>",
        '<span class="badge badge-to-review">to review</span>',
    ]
    assert cells(table, "wagered") == [money(Decimal("10.00"), "EUR")] * 4


def test_the_round_list_shows_times_in_the_active_zone_and_exports_them_in_utc():
    reviewer = get_user_model()(username="Anna")
    with timezone.override("Europe/Malta"):
        table = RoundTable([a_round("R-1", finding_count=1, reviewed_by=reviewer)])
        assert cells(table, "opened_at") == [
            '<time datetime="2026-03-01T15:05:00+01:00" title="2026-03-01 14:05 UTC">'
            "2026-03-01 15:05 CET</time>"
        ]
        assert cells(table, "reviewed") == [
            '<span class="badge badge-reviewed" title="Anna at 2026-03-01 15:05 CET">reviewed</span>'
        ]
        header, *rows = table.as_values()
    assert "Opened" not in header  # the page's column, in the user's zone, is not exported
    assert rows[0][header.index("Opened (UTC)")] == "2026-03-01T14:05:00+00:00"
    assert rows[0][header.index("Review")] == "reviewed"  # the badge's word
    assert rows[0][header.index("Reviewed at (UTC)")] == "2026-03-01T14:05:00+00:00"


def test_the_round_list_exports_plain_data():
    reviewer = get_user_model()(username="compliance")
    table = RoundTable(
        [
            a_round("R-1"),
            a_round("R-2", outcome="voided", finding_count=2, reviewed_by=reviewer, dealt_by="D-ANA"),
        ]
    )
    assert exported(table, "round_id") == ["R-1", "R-2"]
    assert exported(table, "dealt_by") == ["", "D-ANA"]
    assert exported(table, "opened_at_utc") == ["2026-03-01T14:05:00+00:00"] * 2
    assert exported(table, "outcome") == ["Completed", "Voided"]
    assert exported(table, "finding_count") == [0, 2]
    assert exported(table, "reviewed") == ["", "reviewed"]
    assert exported(table, "reviewed_at_utc") == [None, "2026-03-01T14:05:00+00:00"]  # None: "" in the CSV
    assert exported(table, "currency") == ["EUR", "EUR"]
    assert not any("<" in str(value) for row in table.as_values() for value in row)


def test_the_play_record_marks_a_computed_return_that_differs():
    round_ = a_round("R-1")
    bets = [
        Bet(
            round=round_,
            bet_id="B1",
            kind="main",
            stake=Decimal("5"),
            returned=Decimal("10.00"),
            computed_returned=Decimal("10.00"),
        ),
        Bet(
            round=round_,
            bet_id="B2",
            kind="pair",
            stake=Decimal("5"),
            returned=Decimal("0.00"),
            computed_returned=Decimal("55.00"),
        ),
        Bet(
            round=round_,
            bet_id="B3",
            kind="main",
            stake=Decimal("5"),
            returned=Decimal("1.00"),
            computed_returned=None,
        ),
    ]
    table = PlayRecordTable(bets)
    assert cells(table, "computed_returned") == [
        money(Decimal("10.00"), "EUR"),
        '<span class="differs" title="differs from the reported amount">'
        f"{money(Decimal('55.00'), 'EUR')}</span>",
        "—",
    ]
    assert cells(table, "round") == ['<a href="/rounds/R-1/">R-1</a>'] * 3
    assert [value for value in exported(table, "computed_returned")] == ["10.00", "55.00", None]
    assert exported(table, "round") == ["R-1"] * 3
    assert not any("<" in str(value) for row in table.as_values() for value in row)


def test_a_status_badge_takes_its_class_from_the_stored_value_and_shows_the_label():
    players = [
        Player(external_id="P1", currency="EUR", status="active", created_at=OPENED),
        Player(external_id="P2", currency="EUR", status="suspended", created_at=OPENED),
        Player(external_id="P3", currency="EUR", status="active", created_at=OPENED),
    ]
    table = PlayerTable(players)
    assert cells(table, "status") == [
        '<span class="badge badge-active">Active</span>',
        '<span class="badge badge-suspended">Suspended</span>',
        '<span class="badge badge-active">Active</span>',
    ]
    assert cells(table, "external_id")[0] == '<a href="/limits/players/P1/">P1</a>'
    assert cells(table, "created_at") == [local_time(OPENED)] * 3
    assert exported(table, "status") == ["Active", "Suspended", "Active"]
    assert exported(table, "created_at") == ["2026-03-01T14:05:00+00:00"] * 3


def test_the_limit_lists_link_tables_and_players_and_badge_each_state():
    table_limits = TableLimitTable(
        [TableLimit(table=dlx1(), kind="main", min_stake=Decimal("1"), max_stake=Decimal("500"))]
    )
    assert cells(table_limits, "table") == ['<a href="/tables/DLX1/">DLX1</a>']
    assert exported(table_limits, "table") == ["DLX1"]

    player = Player(external_id="P1", currency="EUR")
    in_force = PersonalLimit(player=player, max_stake=Decimal("10"), effective_from=OPENED, reason="Asked.")
    withdrawn = PersonalLimit(
        player=player, max_stake=Decimal("10"), effective_from=OPENED, reason="Asked.", withdrawn_at=OPENED
    )
    pending = PersonalLimit(
        player=player, max_stake=Decimal("10"), effective_from=datetime(2999, 1, 1, tzinfo=UTC), reason="x"
    )
    limits = PersonalLimitTable([in_force, withdrawn, pending])  # shown latest first
    assert cells(limits, "player") == ['<a href="/limits/players/P1/">P1</a>'] * 3
    assert cells(limits, "state") == [
        '<span class="badge badge-pending">pending</span>',
        '<span class="badge badge-in-force">in force</span>',
        '<span class="badge badge-withdrawn">withdrawn</span>',
    ]
    assert exported(limits, "player") == ["P1"] * 3
    assert exported(limits, "state") == ["pending", "in force", "withdrawn"]


def test_an_empty_time_shows_the_columns_default_and_exports_nothing():
    round_ = a_round("R-1")
    round_.opened_at = None
    assert cells(RoundTable([round_]), "opened_at") == ["—"]
    assert exported(RoundTable([round_]), "opened_at_utc") == [None]


def test_a_table_draws_each_distinct_cell_once_and_keeps_it_to_itself():
    """Cells that depend on their value alone are drawn once a table (core.listing.CellColumn): a
    second table starts with none drawn, as django-tables2 gives each table its own columns."""
    first = RoundTable([a_round("R-1"), a_round("R-2"), a_round("R-3", finding_count=1)])
    assert cells(first, "finding_count")[:2] == ['<span class="subtle">0</span>'] * 2
    assert first.columns["finding_count"].column.drawn.keys() == {0, 1}
    second = RoundTable([a_round("R-4", finding_count=5)])
    assert second.columns["finding_count"].column.drawn == {}
    assert cells(second, "finding_count") == ['<span class="badge badge-finding">5</span>']
    assert first.columns["finding_count"].column.drawn.keys() == {0, 1}
