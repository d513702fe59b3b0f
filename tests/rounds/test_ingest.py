"""Round ingest (`round_ingest`, `rounds_ingest`, `manage.py ingest`): the fixture rounds store
clean, bad documents store nothing, resends and conflicts, findings across the rounds of a shoe,
limits, players, incidents, and the configuration version in force when the round was played."""

import copy
import json
import re
from datetime import timedelta
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.db.models import F
from django.utils import timezone

from blackjack.rules import SIDE_OPTION_KINDS, SIDE_OPTION_PATTERNS
from limits.models import Player
from limits.services import personal_limit_set
from rounds.ingest import RoundConflict, RoundFormatError, round_ingest, rounds_ingest
from rounds.models import Bet, Finding, Incident, Round, Shoe
from tables.models import Table
from tests.factories import configuration_approved, user
from tests.fixtures import ROUND_NAMES, round_document, round_path, round_paths

ROUND_MODELS = (Round, Shoe, Bet, Finding, Incident)

pytestmark = pytest.mark.django_db


def variant(document: dict, round_id: str, *, number: int | None = None, **fields) -> dict:
    """The same round under another id (its bets renamed to match), with `fields` changed."""
    changed = copy.deepcopy(document)
    changed["round_id"] = round_id
    for bet in changed["bets"]:
        bet["bet_id"] = f"{round_id}:{bet['bet_id']}"
    if number is not None:
        changed["number"] = number
    changed.update(fields)
    return changed


def iso(moment) -> str:
    return moment.astimezone(timezone.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def codes(round_id: str) -> list[str]:
    return sorted(Finding.objects.filter(round__round_id=round_id).values_list("code", flat=True))


def counts() -> dict[str, int]:
    return {model.__name__: model.objects.count() for model in (*ROUND_MODELS, Player)}


@pytest.fixture
def demo(db):
    call_command("seed_demo", stdout=open("/dev/null", "w"))


# --- the fixture rounds ----------------------------------------------------------------------


@pytest.mark.parametrize("name", ROUND_NAMES)
def test_each_fixture_round_stores_with_no_finding_and_the_reported_amounts(demo, name):
    document = round_document(name)
    result = round_ingest(document=document)
    assert result.created
    stored = Round.objects.get(round_id=document["round_id"])
    assert codes(stored.round_id) == []
    assert stored.finding_count == 0
    assert stored.document == document
    assert (stored.computed_wagered, stored.computed_returned) == (stored.wagered, stored.returned)
    assert stored.bet_count == len(document["bets"]) == stored.bets.count()
    assert len(stored.dealt_spots) == len(document["spots"])
    assert sum(len(spot.hands) for spot in stored.dealt_spots) == sum(
        len(s["hands"]) for s in document["spots"]
    )
    for bet in document["bets"]:
        row = stored.bets.get(bet_id=bet["bet_id"])
        assert row.computed_wagered == row.wagered == Decimal(bet["wagered"])
        assert row.computed_returned == row.returned == Decimal(bet["returned"])
    assert stored.configuration.version == 1


def test_a_paying_side_option_keeps_the_pattern_it_paid_for(demo):
    for name in ROUND_NAMES:
        round_ingest(document=round_document(name))
    side_bets = Bet.objects.filter(kind__in=SIDE_OPTION_KINDS)
    won = side_bets.filter(computed_returned__gt=F("computed_wagered"))
    assert won.exists() and side_bets.filter(computed_returned=0).exists()
    for bet in side_bets:  # a refund (a cancelled round) returns the stake and pays no pattern
        if bet.computed_returned > bet.computed_wagered:
            assert bet.computed_pattern in SIDE_OPTION_PATTERNS[bet.kind], bet.bet_id
        else:
            assert bet.computed_pattern == "", bet.bet_id
    assert not Bet.objects.exclude(kind__in=SIDE_OPTION_KINDS).exclude(computed_pattern="").exists()


def test_the_command_stores_every_file_and_then_finds_them_stored(demo, capsys):
    files = [str(path) for path in round_paths()]
    call_command("ingest", *files)
    out = capsys.readouterr().out.splitlines()
    assert len(out) == len(files) and all(": stored: " in line for line in out)
    assert Round.objects.count() == len(files)
    call_command("ingest", *files)
    assert all(": already stored: " in line for line in capsys.readouterr().out.splitlines())
    assert Round.objects.count() == len(files)


def test_the_command_shows_a_progress_bar_with_rounds_per_second_and_the_lines_above_it(demo, capsys):
    files = [str(path) for path in round_paths()]
    call_command("ingest", *files, "--progress")
    captured = capsys.readouterr()
    assert len(captured.out.splitlines()) == len(files)
    assert all(": stored: " in line for line in captured.out.splitlines())
    last = captured.err.replace("\r", "\n").strip().splitlines()[-1]
    assert re.match(rf"Ingest: 100%.*\| {len(files)}/{len(files)} \[.* [\d.?]+ rounds/s\]", last), last


def test_the_command_shows_no_progress_bar_unless_asked_off_a_terminal(demo, capsys):
    call_command("ingest", *[str(path) for path in round_paths()], "--summary")
    captured = capsys.readouterr()
    assert captured.err == "" and "stored" in captured.out


def test_the_command_exits_2_naming_what_it_refused(demo, tmp_path, capsys):
    bad = tmp_path / "bad.json"
    document = round_document("deluxe-split-double-play-behind")
    document["bets"][2]["stake"] = "-10.00"
    bad.write_text(json.dumps(document))
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    good = round_path("boundless-shared-deal-split-double")
    conflicting = tmp_path / "conflict.json"
    changed = round_document("boundless-shared-deal-split-double")
    changed["closed_at"] = "2026-11-28T23:59:59Z"
    conflicting.write_text(json.dumps(changed))
    with pytest.raises(SystemExit) as exit_:
        call_command("ingest", str(good), str(bad), str(broken), str(conflicting))
    assert exit_.value.code == 2
    captured = capsys.readouterr()
    assert "boundless-shared-deal-split-double.json: stored" in captured.out
    assert "bad.json: refused: bets[2].stake" in captured.err
    assert "broken.json: refused: bad JSON" in captured.err
    assert "conflict.json: conflict: round_id" in captured.err
    assert Round.objects.count() == 1


# --- not a round: nothing stored -------------------------------------------------------------


def _missing_field(document):
    del document["dealer"]


def _bad_card(document):
    document["spots"][0]["hands"][0]["cards"][0] = "1X"


def _negative_stake(document):
    document["bets"][2]["stake"] = "-10.00"


def _float_amount(document):
    document["bets"][2]["returned"] = 20.0


def _unknown_table(document):
    document["table"] = "NOPE1"


@pytest.mark.parametrize(
    ("spoil", "field"),
    [
        (_missing_field, "dealer"),
        (_bad_card, "spots[0].hands[0].cards[0]"),
        (_negative_stake, "bets[2].stake"),
        (_float_amount, "bets[2].returned"),
        (_unknown_table, "table"),
    ],
)
def test_a_document_that_is_not_a_round_is_refused_naming_the_field(demo, spoil, field):
    before = counts()
    document = round_document("deluxe-split-double-play-behind")
    spoil(document)
    with pytest.raises(RoundFormatError) as error:
        round_ingest(document=document)
    assert error.value.field == field
    assert counts() == before
    assert all(model.objects.count() == 0 for model in ROUND_MODELS)


def test_a_batch_with_one_bad_document_stores_nothing_and_names_it(demo):
    documents = [
        round_document(name)
        for name in ("boundless-shared-deal-split-double", "deluxe-split-double-play-behind")
    ]
    documents.append(variant(documents[1], "DLX1-S0412-099", number=26))
    documents[2]["bets"][1]["stake"] = "-1.00"
    with pytest.raises(RoundFormatError) as error:
        rounds_ingest(documents=documents)
    assert error.value.field == "rounds[2].bets[1].stake"
    assert all(model.objects.count() == 0 for model in ROUND_MODELS)


# --- resends and conflicts -------------------------------------------------------------------


def test_an_identical_resend_is_acknowledged_and_nothing_more_is_stored(demo):
    document = round_document("deluxe-split-double-play-behind")
    first = round_ingest(document=document)
    before = counts()
    # The same document, its keys in another order, is the same document.
    again = round_ingest(document=dict(reversed(list(copy.deepcopy(document).items()))))
    assert (first.created, again.created) == (True, False)
    assert again.round.pk == first.round.pk
    assert counts() == before


def test_a_different_document_under_a_stored_round_id_is_a_conflict(demo):
    document = round_document("deluxe-split-double-play-behind")
    round_ingest(document=document)
    before = counts()
    changed = copy.deepcopy(document)
    changed["bets"][0]["returned"] = "999.00"
    with pytest.raises(RoundConflict) as conflict:
        round_ingest(document=changed)
    assert conflict.value.field == "round_id"
    assert counts() == before
    assert Round.objects.get().document == document


def test_a_bet_id_another_round_holds_is_a_conflict_naming_the_bet(demo):
    document = round_document("deluxe-split-double-play-behind")
    round_ingest(document=document)
    before = counts()
    other = variant(document, "DLX1-S0412-098", number=26)
    other["bets"][3]["bet_id"] = document["bets"][3]["bet_id"]
    with pytest.raises(RoundConflict) as conflict:
        round_ingest(document=other)
    assert conflict.value.field == "bets[3].bet_id"
    assert counts() == before


def test_a_batch_answers_each_round_on_its_own(demo):
    stored = round_document("deluxe-split-double-play-behind")
    round_ingest(document=stored)
    changed = copy.deepcopy(stored)
    changed["closed_at"] = "2026-11-28T23:00:00Z"
    new = round_document("boundless-shared-deal-split-double")
    results = rounds_ingest(documents=[new, stored, changed, new])
    assert [(r.created, r.conflict is not None) for r in results] == [
        (True, False),
        (False, False),
        (False, True),
        (False, False),
    ]
    assert Round.objects.count() == 2


# --- the shoe across its rounds --------------------------------------------------------------


@pytest.fixture
def base(demo):
    return round_document("deluxe-split-double-play-behind")


def test_a_ninth_card_across_two_rounds_of_a_shoe_is_found_on_the_second(base):
    first = variant(base, "DLX1-S0412-101", number=5, dealer=base["dealer"] + ["AS"] * 4)
    second = variant(base, "DLX1-S0412-102", number=6, dealer=base["dealer"] + ["AS"] * 5)
    already = sum(1 for card in json.dumps(base).split('"') if card == "AS")
    assert 2 * already + 9 > 8 >= already + 4
    round_ingest(document=first)
    round_ingest(document=second)
    assert "shoe_card_count_exceeded" not in codes("DLX1-S0412-101")
    assert "shoe_card_count_exceeded" in codes("DLX1-S0412-102")


def test_a_gap_in_round_numbers_is_found(base):
    round_ingest(document=variant(base, "R-1", number=1))
    round_ingest(document=variant(base, "R-3", number=3))
    assert "shoe_round_gap" not in codes("R-1")
    assert "shoe_round_gap" in codes("R-3")


def test_a_repeated_round_number_is_found(base):
    round_ingest(document=variant(base, "R-2a", number=2))
    round_ingest(document=variant(base, "R-2b", number=2))
    assert "shoe_round_repeated" in codes("R-2b")
    assert "shoe_round_repeated" not in codes("R-2a")


def test_a_round_after_the_cut_card_round_is_found(base):
    round_ingest(document=variant(base, "R-1", number=1, cut_card=True))
    round_ingest(document=variant(base, "R-2", number=2))
    assert "shoe_after_cut_card" not in codes("R-1")
    assert "shoe_after_cut_card" in codes("R-2")


def test_a_shoe_of_another_table_is_refused(demo):
    deluxe = round_document("deluxe-split-double-play-behind")
    round_ingest(document=deluxe)
    other = round_document("classic-perfect-pairs-21-plus-3-behind")
    other["shoe"] = deluxe["shoe"]
    with pytest.raises(RoundFormatError) as error:
        round_ingest(document=other)
    assert error.value.field == "shoe"
    assert Round.objects.count() == 1


# --- players and limits ----------------------------------------------------------------------


def test_a_stake_outside_the_players_limit_is_a_limit_breach(base):
    main = next(bet for bet in base["bets"] if bet["kind"] == "main")
    player = Player.objects.filter(external_id=main["player"]).first()
    if player is None:
        round_ingest(document=variant(base, "R-0", number=1))
        player = Player.objects.get(external_id=main["player"])
    personal_limit_set(
        player=player,
        max_stake=Decimal(main["stake"]) - 1,
        changed_by=user("customer_service"),
        reason="asked",
    )
    now = timezone.now() + timedelta(minutes=1)
    round_ingest(document=variant(base, "R-9", number=9, opened_at=iso(now), closed_at=iso(now)))
    breach = Finding.objects.get(
        round__round_id="R-9", code="limit_breached", bet__bet_id=f"R-9:{main['bet_id']}"
    )
    assert main["player"] in breach.message


def test_a_trial_account_in_a_seat_is_not_allowed(base):
    seated = base["spots"][0]
    for bet in base["bets"]:
        if bet["player"] == seated["player"]:
            bet["player"] = "T9001"
    seated["player"] = "T9001"
    round_ingest(document=base)
    finding = Finding.objects.get(code="seat_not_allowed")
    assert finding.spot == seated["spot"] and "T9001" in finding.message


def test_an_unknown_player_becomes_a_real_account_in_the_tables_currency(demo):
    Table.objects.filter(code="DLX1").update(currency="GBP")
    document = round_document("deluxe-split-double-play-behind")
    for spot in document["spots"]:
        if spot["player"] == document["spots"][0]["player"]:
            spot["player"] = "PNEW1"
    for bet in document["bets"]:
        if bet["player"] == document["bets"][0]["player"]:
            bet["player"] = "PNEW1"
    round_ingest(document=document)
    player = Player.objects.get(external_id="PNEW1")
    assert (player.account_type, player.currency, player.status) == ("real", "GBP", "active")
    record = player.history.get()
    assert record.history_type == "+" and document["round_id"] in record.history_change_reason


# --- incidents, payouts and the configuration in force ---------------------------------------


def test_a_cancelled_round_opens_an_incident_and_the_next_joins_it(demo):
    document = round_document("classic-network-failure-refunds")
    round_ingest(document=document)
    incident = Incident.objects.get()
    assert (incident.table.code, incident.round.round_id, incident.status) == (
        "CLS1",
        document["round_id"],
        "open",
    )
    round_ingest(document=variant(document, "CLS1-S0088-019", number=19))
    assert Incident.objects.get().pk == incident.pk
    assert incident.notes.count() == 2


def test_a_wrong_payout_is_stored_with_both_amounts_and_a_finding(demo):
    document = round_document("deluxe-split-double-play-behind")
    bet = document["bets"][0]
    right = Decimal(bet["returned"])
    bet["returned"] = str(right + 5)
    round_ingest(document=document)
    stored = Bet.objects.get(bet_id=bet["bet_id"])
    assert (stored.returned, stored.computed_returned, stored.difference) == (right + 5, right, Decimal(-5))
    finding = Finding.objects.get(code="wrong_returned")
    assert finding.bet_id == stored.pk
    assert Round.objects.get().finding_count == 1


def test_a_classic_side_option_without_the_players_main_bet_is_stored_void_with_its_finding(demo):
    document = round_document("classic-perfect-pairs-21-plus-3-behind")
    document["bets"].append(  # P7551 plays behind seat 5 only: Perfect Pairs on seat 1 is void
        {"bet_id": "C17-9", "player": "P7551", "kind": "perfect_pairs", "spot": "1"}
        | {"stake": "1.00", "wagered": "1.00", "returned": "1.00"}
    )
    round_ingest(document=document)
    stored = Bet.objects.get(bet_id="C17-9")
    assert (stored.computed_wagered, stored.computed_returned, stored.computed_pattern) == (1, 1, "")
    finding = Finding.objects.get()
    assert (finding.code, finding.bet_id, finding.spot) == ("side_option_without_main_bet", stored.pk, "1")
    assert finding.get_code_display() == "Side option without the player's main bet"
    assert "P7551" in finding.message and "void" in finding.message
    assert Round.objects.get().finding_count == 1


def test_a_round_is_settled_by_the_configuration_in_force_when_it_was_played(demo):
    table = Table.objects.get(code="CLS1")
    configuration_approved(
        table,
        {
            "side_options": {
                "perfect_pairs": {
                    "paytable": {"mixed_pair": "6", "coloured_pair": "12", "perfect_pair": "30"}
                }
            }
        },
        reason="a richer perfect pair",
    )
    played = round_document("classic-perfect-pairs-21-plus-3-behind")  # played before the change
    round_ingest(document=played)
    assert codes(played["round_id"]) == []
    assert Round.objects.get(round_id=played["round_id"]).configuration.version == 1
    later = timezone.now() + timedelta(minutes=1)
    after = variant(played, "CLS1-S0088-040", number=40, opened_at=iso(later), closed_at=iso(later))
    round_ingest(document=after)
    assert "wrong_returned" in codes("CLS1-S0088-040")  # its perfect pair of queens now pays 30:1
    assert Round.objects.get(round_id="CLS1-S0088-040").configuration.version == 2


def test_a_refused_seat_silences_only_its_own_seat_play(base):
    from limits.services import player_create

    trial, other = base["spots"][0], base["spots"][1]
    player_create(external_id="PGBP1", currency="GBP")  # plays in GBP; the table is in EUR
    for bet in base["bets"]:
        if bet["player"] == trial["player"]:
            bet["player"] = "T9001"
        elif bet["player"] == other["player"]:
            bet["player"] = "PGBP1"
    trial["player"], other["player"] = "T9001", "PGBP1"
    round_ingest(document=base)
    assert Finding.objects.filter(code="seat_not_allowed", spot=trial["spot"]).count() == 1
    assert not Finding.objects.filter(code="limit_breached", spot=trial["spot"], bet__kind="main").exists()
    other_main = Finding.objects.get(code="limit_breached", spot=other["spot"], bet__kind="main")
    assert "plays in GBP" in other_main.message
