"""Reads of round history that pages reuse: keyset pages, a round laid out for recall, play records."""

from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from decimal import Decimal

from django.db import models
from django.db.models import Count, Exists, F, OuterRef, Q, QuerySet, StringAgg, Subquery, Sum, Value
from django.db.models.functions import Coalesce

from core.filters import in_utc

from .choices import ProposalStatus
from .deal import DealtSpot
from .models import (
    Adjustment,
    Bet,
    Finding,
    Refund,
    Round,
    RoundCorrection,
    RoundKey,
    VoidLine,
    money_total,
)
from .outcome import outcome_expression, outcome_of
from .partitions import month_after, month_of
from .templatetags.cards import CardFace, total_text

PAGE_SIZE = 50

# --- keyset pagination ---------------------------------------------------------------------------


@dataclass
class KeysetPage:
    """One page of rows in the page's order, with the cursors of the pages around it (no COUNT
    anywhere)."""

    rows: list
    newer: str | None = None  # the page before, in the page's order: pass as ?after=
    older: str | None = None  # the page after: pass as ?before=
    is_first: bool = True


def _values_of(row, fields: tuple[str, ...]) -> tuple:
    values = []
    for name in fields:
        value = row
        for part in name.split("__"):
            value = getattr(value, part)
        values.append(value)
    return tuple(values)


def _key_of(row, fields: tuple[str, ...]) -> str:
    values = _values_of(row, fields)
    return "_".join(value.isoformat() if isinstance(value, datetime) else str(value) for value in values)


def cursor_of(row, order: tuple[str, ...]) -> str:
    """The keyset cursor of `row` in `order`: what ?before= or ?after= takes to page from it."""
    return _key_of(row, tuple(key.removeprefix("-") for key in order))


def next_in_order(queryset: QuerySet, row, order: tuple[str, ...]):
    """The row of `queryset` that follows `row` in `order` (whether `row` is still in it or not),
    or None: what a reviewer's "next" is in a filtered, sorted list."""
    fields = tuple(key.removeprefix("-") for key in order)
    following = queryset.filter(_beyond(order, _values_of(row, fields), backwards=False))
    return following.order_by(*order).first()


def _read_int(text: str) -> int:
    return int(text)


def _read_moment(text: str) -> datetime:
    moment = datetime.fromisoformat(text)
    if moment.tzinfo is None:
        raise ValueError("a moment without its offset")
    moment = in_utc(moment)
    if moment is None:
        raise ValueError("a moment outside the calendar in UTC")
    return moment


def _read_amount(text: str) -> Decimal:
    amount = Decimal(text)
    if not amount.is_finite():
        raise ValueError("not an amount")
    return amount


def _read_text(text: str) -> str:
    if "\x00" in text:  # PostgreSQL compares no text with a NUL in it
        raise ValueError("a NUL")
    return text


def _reader_of(model, path: str):
    """How a cursor's part is read back for the field at `path` (relations followed by `__`)."""
    *relations, name = path.split("__")
    for relation in relations:
        model = model._meta.get_field(relation).related_model
    field = model._meta.get_field(name)
    if isinstance(field, models.DateTimeField):
        return _read_moment
    if isinstance(field, models.DateField):
        return date.fromisoformat
    if isinstance(field, models.DecimalField):
        return _read_amount
    if isinstance(field, models.CharField):
        return _read_text
    return _read_int  # ids, foreign keys and counts


def _parse_key(text: str, readers: list) -> tuple | None:
    # Only the first field may be text (a table's code may hold "_"): split from the right.
    parts = text.rsplit("_", len(readers) - 1)
    if len(parts) != len(readers):
        return None
    try:
        return tuple(read(part) for read, part in zip(readers, parts, strict=True))
    except (ValueError, ArithmeticError, OverflowError):
        return None


def _beyond(order: tuple[str, ...], values: tuple, *, backwards: bool) -> Q:
    """Rows strictly past `values` in `order` (Django's "-field" for descending), or before them
    (`backwards`): (a, b) past (x, y) is a past x, or a = x and b past y. And a at x or past it, said
    apart: the bound an index on (a, b) starts its scan from (PostgreSQL takes none from the OR)."""
    condition = Q()
    for index in range(len(order) - 1, -1, -1):
        field = order[index].removeprefix("-")
        lookup = "lt" if order[index].startswith("-") != backwards else "gt"
        here = Q(**{f"{field}__{lookup}": values[index]})
        condition = here if index == len(order) - 1 else here | (Q(**{field: values[index]}) & condition)
    first = order[0].removeprefix("-")
    lookup = "lte" if order[0].startswith("-") != backwards else "gte"
    return Q(**{f"{first}__{lookup}": values[0]}) & condition


def _reversed(order: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(key.removeprefix("-") if key.startswith("-") else f"-{key}" for key in order)


def keyset_page(
    queryset: QuerySet,
    params,
    *,
    order: tuple[str, ...] = ("-id",),
    per_page: int = PAGE_SIZE,
    month_field: str | None = None,
    first_day: date | None = None,
    by_related: bool = False,
) -> KeysetPage:
    """The page of `queryset` in `order` (Django's order_by fields, the last one unique), after
    ?before= or before ?after= in `params`.

    One query per page: it fetches `per_page + 1` rows to learn whether another page follows. A
    cursor that cannot be read is ignored (the first page is shown).

    `by_related`: an order that starts with a field of a related row, of which there are few (a
    round's table, by code), is read a related row at a time (_read_by_related): a query each.

    `month_field` names the gaming day a partitioned table is kept by month in. When the order
    starts with it, a page is read from its cursor's month first (newest first without a cursor:
    `first_day`'s), and from the months beyond, in a second query, only when that one runs out: so
    PostgreSQL mostly plans one month's partitions rather than the whole history's.
    """
    fields = tuple(key.removeprefix("-") for key in order)
    readers = [_reader_of(queryset.model, field) for field in fields]
    before = _parse_key(params.get("before", ""), readers) if params.get("before") else None
    after = _parse_key(params.get("after", ""), readers) if params.get("after") else None
    by_month = month_field if fields[0] == month_field else None
    newest_first = order[0].startswith("-")

    def read(key: tuple | None, *, backwards: bool) -> list:
        """The page's rows and one more: past `key` in `order`, or before it (`backwards`)."""
        if by_related and "__" in fields[0]:
            return _read_by_related(queryset, order, key, per_page + 1, backwards=backwards)
        rows = queryset.order_by(*(_reversed(order) if backwards else order))
        if key is not None:
            rows = rows.filter(_beyond(order, key, backwards=backwards))
        start = key[0] if key is not None else (first_day if newest_first else None)
        return _read_by_month(rows, per_page + 1, by_month, start, newest_first != backwards)

    if after is not None:
        rows = read(after, backwards=True)
        if len(rows) > per_page:
            rows = rows[:per_page][::-1]
            return KeysetPage(
                rows, newer=_key_of(rows[0], fields), older=_key_of(rows[-1], fields), is_first=False
            )
        # Reached the first rows: show the first full page.
        before = None
    if before is not None:
        rows = read(before, backwards=False)
        more = len(rows) > per_page
        rows = rows[:per_page]
        return KeysetPage(
            rows,
            newer=_key_of(rows[0], fields) if rows else None,
            older=_key_of(rows[-1], fields) if more else None,
            is_first=False,
        )
    rows = read(None, backwards=False)
    more = len(rows) > per_page
    rows = rows[:per_page]
    return KeysetPage(rows, older=_key_of(rows[-1], fields) if more else None)


def _read_by_month(
    rows: QuerySet, limit: int, field: str | None, start: date | None, newest_first: bool
) -> list:
    """The first `limit` of `rows`, ordered by `field` first: from `start`'s month first, and from
    the months beyond it (older or newer) only when that month runs out."""
    if field is None or start is None:
        return list(rows[:limit])
    edge = month_of(start) if newest_first else month_after(month_of(start))
    near, beyond = Q(**{f"{field}__gte": edge}), Q(**{f"{field}__lt": edge})
    if not newest_first:
        near, beyond = beyond, near
    found = list(rows.filter(near)[:limit])
    if len(found) < limit:
        found += rows.filter(beyond)[: limit - len(found)]
    return found


def _read_by_related(queryset: QuerySet, order: tuple[str, ...], key, limit: int, *, backwards: bool) -> list:
    """The first `limit` rows of `queryset` past `key` in `order` (before it: `backwards`), the order
    starting with a related row's field (a round's table, by code): a related row at a time, in that
    field's order from the key's, and each one's rows in the rest of the order.

    Each of those reads comes from an index on (relation, the rest of the order), where one query
    joined and sorted on the related field sorts every row kept (1.2 s a page of 1,000,000 rounds).
    It takes a query per related row reached: one or two a page, for a casino's tables."""
    relation, _, attribute = order[0].removeprefix("-").partition("__")
    descending = order[0].startswith("-") != backwards
    rest = _reversed(order[1:]) if backwards else order[1:]
    related = queryset.model._meta.get_field(relation).related_model.objects
    groups = related.order_by(f"-{attribute}" if descending else attribute)
    if key is not None:
        groups = groups.filter(**{f"{attribute}__{'lte' if descending else 'gte'}": key[0]})
    found = []
    for pk, value in groups.values_list("pk", attribute):
        rows = queryset.filter(**{relation: pk}).order_by(*rest)
        if key is not None and value == key[0]:
            rows = rows.filter(_beyond(order[1:], key[1:], backwards=backwards))
        found += rows[: limit - len(found)]
        if len(found) == limit:
            break
    return found


# --- finding codes --------------------------------------------------------------------------------


def finding_codes_expression() -> Subquery:
    """A round's finding codes, space-separated, repeated and in no order (SQLite orders and
    de-duplicates no aggregate with a delimiter): a list's annotation, read by `finding_codes_of`."""
    return Subquery(
        Finding.objects.filter(round=OuterRef("pk"), gaming_day=OuterRef("gaming_day"))
        .order_by()
        .values("round")
        .annotate(codes=StringAgg("code", Value(" ")))
        .values("codes")
    )


def with_finding_codes(rounds: list[Round]) -> list[Round]:
    """Each round's `finding_codes_text`, as `finding_codes_expression` gives it, in one query that
    names the rounds' gaming days (so that PostgreSQL plans only their months' partitions, where the
    correlated subquery plans every month's): a page's rounds."""
    flagged = [r for r in rounds if r.finding_count]
    codes = {}
    if flagged:
        found = Finding.objects.filter(
            gaming_day__in={r.gaming_day for r in flagged}, round__in=[r.pk for r in flagged]
        ).values_list("round", "code")
        for round_pk, code in found:
            codes.setdefault(round_pk, []).append(code)
    for r in rounds:
        r.finding_codes_text = " ".join(codes[r.pk]) if r.pk in codes else None
    return rounds


def finding_codes_of(text: str | None) -> list[str]:
    """ "b a b" -> ["a", "b"]: the distinct codes of `finding_codes_expression`, sorted."""
    return sorted(set(text.split())) if text else []


# --- a round named in a form ------------------------------------------------------------------------


def newest_gaming_day() -> date | None:
    """The gaming day of the round stored last, read from the registry (not partitioned): where the
    round list's newest page starts reading."""
    return RoundKey.objects.order_by("-pk").values_list("gaming_day", flat=True).first()


def round_named(round_id: str, rounds: QuerySet | None = None) -> Round | None:
    """The round of `rounds` (by default every one) whose id is `round_id`, spaces around it
    ignored; None when there is none, as for an id with a NUL, which PostgreSQL cannot compare."""
    round_id = round_id.strip()
    if not round_id or "\x00" in round_id:
        return None
    return (Round.objects.all() if rounds is None else rounds).by_round_id(round_id).first()


# --- outcomes --------------------------------------------------------------------------------------


def with_outcomes(rounds: list[Round]) -> list[Round]:
    """Each round given its `outcome` (rounds.outcome), from one query for all their corrections:
    for rounds read without the `outcome_expression()` annotation, such as ingest's answers."""
    pending = [r for r in rounds if getattr(r, "outcome", None) is None]
    kinds = dict(
        RoundCorrection.objects.filter(round_id__in=[r.pk for r in pending]).values_list("round_id", "kind")
    )
    for round_ in pending:
        round_.outcome = outcome_of(round_.status, kinds.get(round_.pk)).value
    return rounds


# --- a round laid out for recall -----------------------------------------------------------------


@dataclass
class Decision:
    action: str  # hit, stand, double, split, surrender
    auto: bool = False
    requested: str | None = None


@dataclass
class HandView:
    position: int
    cards: list[CardFace]
    total: str
    decisions: list[Decision]
    findings: list = field(default_factory=list)
    draws: list[int] = field(default_factory=list)  # numbers of the shared draws this hand took


@dataclass
class SpotView:
    spot: DealtSpot
    hands: list[HandView]
    bets: list = field(default_factory=list)
    findings: list = field(default_factory=list)  # on the spot, its hands or its bets

    @property
    def has_findings(self) -> bool:
        return bool(self.findings)


def decisions(actions: list) -> list[Decision]:
    shown = []
    for action in actions or []:
        if isinstance(action, dict):
            name, requested = str(action.get("action", "")), action.get("requested")
        else:
            name, requested = str(action), None
        auto = name.startswith("auto_")
        shown.append(Decision(name.removeprefix("auto_"), auto, requested))
    return shown


def _hand_faces(codes: list[str], *, shared: bool, split: bool, counter: list[int]) -> tuple[list, list]:
    """A hand's faces; in a shared deal the extras are numbered by the common draw sequence.

    `counter` carries the spot's extra-card count across its hands (the first split hand is played
    to its end before the second takes its second card).
    """
    if not shared:
        return [CardFace(code) for code in codes], []
    own = 1 if split else 2  # the cards every player holds: the two initial ones, or one after a split
    faces, draws = [], []
    for index, code in enumerate(codes):
        if index < own:
            faces.append(CardFace(code))
        else:
            counter[0] += 1
            faces.append(CardFace(code, draw=counter[0]))
            draws.append(counter[0])
    return faces, draws


def round_spots(
    round_: Round, spots: list[DealtSpot], findings: list[Finding], *, bets: list[Bet] | None = None
) -> list[SpotView]:
    """The given spots of the round with their hands, bets and findings (one query at most; none for
    the `bets` given, those of a round read back from the archive)."""
    shared = bool(round_.shared)
    codes = [spot.spot for spot in spots]
    by_code: dict[str, list[Bet]] = {}
    if bets is None:
        # Only what the round page shows of a bet: a field left out would cost a query per bet (the
        # page's queries are pinned in a test).
        shown = (
            Bet.objects.of_round(round_)
            .filter(spot__in=codes)
            .select_related("player")
            .only(
                "bet_id",
                "spot",
                "kind",
                "options",
                "stake",
                "wagered",
                "returned",
                "computed_wagered",
                "computed_returned",
                "player__external_id",
            )
            .order_by("id")
        )
    else:
        wanted = set(codes)
        shown = sorted((bet for bet in bets if bet.spot in wanted), key=lambda bet: bet.pk)
    for bet in shown:
        bet.finding_list = [f for f in findings if f.bet_id == bet.pk]
        by_code.setdefault(bet.spot, []).append(bet)
    views = []
    for spot in spots:
        counter = [0]
        hand_views = []
        for hand in spot.hands:
            cards, draws = _hand_faces(hand.cards, shared=shared, split=len(spot.hands) > 1, counter=counter)
            hand_views.append(
                HandView(
                    position=hand.position,
                    cards=cards,
                    total=total_text(hand.cards),
                    decisions=decisions(hand.actions),
                    findings=[f for f in findings if f.spot == spot.spot and f.hand == hand.position],
                    draws=draws,
                )
            )
        spot_bets = by_code.get(spot.spot, [])
        bet_pks = {bet.pk for bet in spot_bets}
        spot_findings = [f for f in findings if f.spot == spot.spot or (f.bet_id and f.bet_id in bet_pks)]
        views.append(SpotView(spot=spot, hands=hand_views, bets=spot_bets, findings=spot_findings))
    return views


def spots_with_findings(round_: Round, findings: list[Finding], bets: list[Bet] | None = None) -> set[str]:
    """The spots with a finding on them or on one of their bets (`bets`: those of a round read back
    from the archive; else the database's)."""
    spots = {f.spot for f in findings if f.spot}
    bet_ids = [f.bet_id for f in findings if f.bet_id]
    if bet_ids and bets is not None:
        wanted = set(bet_ids)
        spots |= {bet.spot for bet in bets if bet.pk in wanted}
    elif bet_ids:
        spots |= set(Bet.objects.filter(pk__in=bet_ids).values_list("spot", flat=True))
    return spots


def shoe_neighbours(round_: Round) -> tuple[Round | None, Round | None]:
    """The rounds just before and after this one in its shoe (numbered from 1). Looked for in the
    gaming days around the round's first, which PostgreSQL plans in its month (or two); one not
    found there is looked for in the days before or after them, in a second query."""
    before, after = round_.number - 1, round_.number + 1
    near = (round_.gaming_day - timedelta(days=1), round_.gaming_day + timedelta(days=1))
    found = _shoe_rounds(round_, Q(number__in={before, after} - {0}, gaming_day__range=near))
    farther = Q(number=after, gaming_day__gt=near[1]) if after not in found else Q()
    if before and before not in found:
        farther |= Q(number=before, gaming_day__lt=near[0])
    if farther:
        found |= _shoe_rounds(round_, farther)
    return found.get(before), found.get(after)


def _shoe_rounds(round_: Round, numbered: Q) -> dict[int, Round]:
    rounds = Round.objects.filter(numbered, shoe_id=round_.shoe_id).exclude(pk=round_.pk)
    return {r.number: r for r in rounds.only("round_id", "number")}


# --- a player's play record ------------------------------------------------------------------------


def limit_breaches() -> QuerySet:
    """Findings of a stake outside the player's effective limit (rounds.ingest.findings), each on
    one bet."""
    return Finding.objects.filter(code="limit_breached")


def breached_limit() -> Exists:
    """Whether the bet of the row (a Bet queryset's) breached a limit: for an annotation or a filter."""
    return Exists(limit_breaches().filter(bet=OuterRef("pk")))


def play_record_bets(player) -> QuerySet:
    """A player's bets with their round and its outcome, the approved adjustments' sum, the refund,
    the void's net (stake returned less payout reversed) and whether it breached a limit (one
    query)."""
    money = money_total()
    adjusted = (
        Adjustment.objects.filter(bet=OuterRef("pk"), resettlement__status=ProposalStatus.APPROVED)
        .values("bet")
        .annotate(total=Sum("amount"))
        .values("total")
    )
    refunded = Refund.objects.filter(bet=OuterRef("pk")).values("amount")[:1]
    voided = (
        VoidLine.objects.filter(bet=OuterRef("pk"), void__status=ProposalStatus.APPROVED)
        .annotate(net=F("returned_stake") - F("reversed_returned"))
        .values("net")[:1]
    )
    return (
        Bet.objects.filter(player=player)
        .select_related("round__table")
        .defer("round__document")  # a Boundless round's document is hundreds of kB: a row needs none
        .annotate(
            outcome=outcome_expression("round__"),
            adjustment=Subquery(adjusted, output_field=money),
            refund=Subquery(refunded, output_field=money),
            void=Subquery(voided, output_field=money),
            breached=breached_limit(),
        )
    )


def play_record_totals(player, first: date, last: date) -> list[dict]:
    """One row per gaming day × bet kind (× currency) in the period: bets, wagered, returned, net.

    Summed by the database (one GROUP BY query) by the rounds' stored gaming day; net is what the
    player won: returned − wagered.
    """
    zero = Value(Decimal("0.00"), output_field=money_total())
    rows = (
        Bet.objects.filter(player=player, gaming_day__range=(first, last))
        .annotate(day=F("gaming_day"), currency=F("round__table__currency"))
        .values("day", "kind", "currency")
        .annotate(
            bets=Count("id"),
            wagered=Coalesce(Sum("wagered"), zero),
            returned=Coalesce(Sum("returned"), zero),
        )
        .order_by("-day", "kind", "currency")
    )
    return [{**row, "net": row["returned"] - row["wagered"]} for row in rows]


def play_record_period_totals(player, first: date, last: date) -> list[dict]:
    """The whole period per currency (one query)."""
    zero = Value(Decimal("0.00"), output_field=money_total())
    rows = (
        Bet.objects.filter(player=player, gaming_day__range=(first, last))
        .values(currency=F("round__table__currency"))
        .annotate(
            bets=Count("id"),
            wagered=Coalesce(Sum("wagered"), zero),
            returned=Coalesce(Sum("returned"), zero),
        )
        .order_by("currency")
    )
    return [{**row, "net": row["returned"] - row["wagered"]} for row in rows]
