"""python manage.py demo_day: a simulated gaming day at the demo tables, through the real ingest,
with the incidents and corrections a day brings, then the daily job and its PDFs.

Run after seed_demo. The day is the last closed gaming day (so that the daily job may report on
it). Every table deals shoe after shoe for hours; Boundless rounds carry hundreds of players.
The simulation plants a few wrong payouts and rounds the game server cancels (a network failure:
ingest opens an incident for them and pauses the table); a supervisor ends each such incident by
cancelling those rounds, every bet refunded. A malfunction at DLX1 hits a settled round: one
supervisor proposes its void, a second approves it (every bet's payout reversed and its stake
returned). One wrong payout is corrected through a re-settlement (proposed by compliance, approved
by a supervisor). A supervisor proposes a configuration change at BND1 (the Pair option open until
round 45 of the shoe, as its other options are); a second approves it once its odds are shown, and it
is in force from the approval on (never in the past, so after the simulated day). At DLX1 a cheaper
Pair, below the RTP floor, awaits a compliance officer's approval, its reason written. Players that
seed_demo gave a lower personal maximum bet above it: those bets are breached limits.

The monitors (alerts) start after the day's rounds, which were loaded at once rather than live.

Every table's rounds say who dealt them (`dealt_by`): a few dealers a table, taking turns in shifts of
two hours of the gaming day, so that the table page's dealer on duty follows the latest round.

Before the day it plays 29 earlier days of lighter play (two shoes a seated table, one Boundless
shoe with fewer players, no planted errors), so that the day's trend charts have a month of history:
each earlier day's figures are stored by a run of the daily job of figures only (no charts, no PDFs:
that keeps `make demo` within its minutes). Running it again for the same day stores nothing twice.
"""

import json
import time
from collections.abc import Callable
from datetime import date, datetime, timedelta

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from alerts.monitors import monitors_start_after_latest
from blackjack.simulate import simulate
from core.gaming_day import gaming_day, last_closed_gaming_day
from reports.models import ReportChart, ReportDocument, ReportRun, RunTrigger
from reports.pdf import document_file
from reports.records import current_run
from rounds.ingest import rounds_ingest
from rounds.models import Bet, Incident, Round, Void
from rounds.services import (
    incident_cancel_round,
    incident_note_add,
    incident_open,
    incident_resume,
    resettlement_approve,
    resettlement_propose,
    unrefunded_server_cancelled_rounds,
    void_approve,
    void_propose,
)
from tables.models import Table
from tables.odds import configuration_odds_compute
from tables.selectors import configuration_in_force
from tables.services import configuration_approve, configuration_propose

# table code -> players at the table (Boundless: one spot each, all sharing the deal)
PLAYERS = {"DLX1": 7, "BND1": 300, "CLS1": 7, "MPB1": 7}
# A shoe of a seated table lasts about 25 minutes, a Boundless shoe about an hour.
SHOES = {"DLX1": 10, "BND1": 5, "CLS1": 10, "MPB1": 10}
BATCH = 50
WRONG_PAYOUT_RATE = 0.01
CANCEL_RATE = 0.004
# The earlier days: lighter play, for the trend of the day (at most these shoes and Boundless players).
HISTORY_DAYS = 29
HISTORY_SHOES = {"DLX1": 2, "BND1": 1, "CLS1": 2, "MPB1": 2}
HISTORY_BOUNDLESS_PLAYERS = 40
# The game server's ids of each table's dealers, who take turns in shifts of SHIFT from the gaming day's
# start (the day opens two hours in, so the first shift's dealer is the second).
DEALERS = {
    "DLX1": ("D-ANA", "D-BEN", "D-CARA"),
    "BND1": ("D-DIMA", "D-EVA", "D-FINN"),
    "CLS1": ("D-GINA", "D-HUGO", "D-IDA"),
    "MPB1": ("D-JON", "D-KAI", "D-LEA"),
}
SHIFT = timedelta(hours=2)
DEMO_CHANGE_REASON = "Demo: the Pair option open as long as the other side options (round 45)."
DEMO_GUARDRAIL_REASON = "Demo: a cheaper Pair for the night shift."
CHEAPER_PAIR = {"mixed_pair": "4", "coloured_pair": "8", "perfect_pair": "25", "suited_trips": "40"}


class Command(BaseCommand):
    help = "Simulate a gaming day at the demo tables through ingest, with incidents, then run the daily job."

    def add_arguments(self, parser):
        parser.add_argument(
            "--day", type=date.fromisoformat, help="YYYY-MM-DD (default: the last closed day)"
        )
        parser.add_argument("--seed", type=int, default=2026)
        parser.add_argument("--shoes", type=int, help="shoes at every table (default: a busy day's)")
        parser.add_argument("--boundless-players", type=int, default=PLAYERS["BND1"])
        parser.add_argument(
            "--history-days",
            type=int,
            default=HISTORY_DAYS,
            help=f"earlier days of lighter play, with their figures (default {HISTORY_DAYS})",
        )

    def handle(self, *args, day, seed, shoes, boundless_players, history_days, **options):
        day = day or last_closed_gaming_day()
        tables = {table.code: table for table in Table.objects.filter(code__in=PLAYERS)}
        if len(tables) != len(PLAYERS):
            raise CommandError("The demo tables are missing: run `python manage.py seed_demo` first.")
        users = {
            user.username: user
            for user in get_user_model().objects.filter(
                username__in=["supervisor", "supervisor-2", "compliance"]
            )
        }
        if len(users) != 3:
            raise CommandError("The demo users are missing: run `python manage.py seed_demo` first.")
        players = {**PLAYERS, "BND1": boundless_players}
        self.earlier_days(tables, day, history_days, shoes, players, seed)
        started = time.perf_counter()
        opens = gaming_day(day).starts_at + timedelta(hours=2)
        self.stdout.write(f"Gaming day {gaming_day(day)}: the tables open at {opens:%H:%M} UTC")
        for number, code in enumerate(PLAYERS):
            opening = opens + timedelta(minutes=7 * number)
            self.deal(tables[code], day, shoes or SHOES[code], players[code], seed + number, opening)
        self.server_cancelled_rounds(tables.values(), users["supervisor"])
        self.malfunction_void(tables["DLX1"], day, users["supervisor"], users["supervisor-2"])
        self.resettle_one_wrong_payout(day, users["compliance"], users["supervisor"])
        self.stdout.write(f"Simulated and ingested in {time.perf_counter() - started:.1f} s")
        self.configuration_change(tables["BND1"], users["supervisor"], users["supervisor-2"])
        self.proposal_past_the_guardrail(tables["DLX1"], users["supervisor"])
        # The day was loaded in one go, not live: the monitors watch the rounds dealt from now on.
        monitors_start_after_latest()
        self.daily_job(day)

    def configuration_change(self, table: Table, supervisor, second_supervisor) -> None:
        """A supervisor proposes a change, its odds are worked out, a second supervisor approves it."""
        if table.configurations.filter(reason=DEMO_CHANGE_REASON).exists():
            return  # the demo day was run before
        pair = table.configurations.in_force().latest("valid_from").rule_set.to_dict()["side_options"]["pair"]
        proposal = configuration_propose(
            table=table,
            changes={"side_options": {"pair": {**pair, "max_round": 45}}},
            proposed_by=supervisor,
            reason=DEMO_CHANGE_REASON,
        )
        configuration_odds_compute(configuration=proposal)  # the task's work, here at once
        version = configuration_approve(
            configuration=proposal,
            decided_by=second_supervisor,
            comment="Demo: checked the RTP before and after; nothing falls.",
        )
        self.stdout.write(
            f"  {table.code}: configuration version {version.version} proposed by {supervisor}, approved by "
            f"{second_supervisor}, in force from {version.valid_from:%Y-%m-%d %H:%M} UTC"
        )

    def proposal_past_the_guardrail(self, table: Table, supervisor) -> None:
        """A cheaper Pair (97.12 % -> 80.85 %, below the floor), explained, awaiting compliance."""
        if table.configurations.filter(reason=DEMO_GUARDRAIL_REASON).exists():
            return
        proposal = configuration_propose(
            table=table,
            changes={"side_options": {"pair": {"paytable": CHEAPER_PAIR, "max_round": None}}},
            proposed_by=supervisor,
            reason=DEMO_GUARDRAIL_REASON,
            rtp_fall_reason="Demo: the operator's promotion budget ends; the studio asked for the old table.",
        )
        configuration_odds_compute(configuration=proposal)
        self.stdout.write(f"  {table.code}: version {proposal.version} proposed, past the RTP guardrail")

    def earlier_days(self, tables: dict, day: date, days: int, shoes: int | None, players: dict, seed: int):
        """The `days` gaming days before `day`, oldest first, each dealt through ingest at every table
        and its figures stored by a run of figures only. A day with a current run is left as it is."""
        if days <= 0:
            return
        started = time.perf_counter()
        self.stdout.write(f"{days} earlier days of lighter play, for the trend charts:")
        for back in range(days, 0, -1):
            earlier = day - timedelta(days=back)
            if current_run(earlier) is not None:
                continue
            opens = gaming_day(earlier).starts_at + timedelta(hours=2)
            stored = 0
            for number, code in enumerate(PLAYERS):
                table_shoes = min(shoes or HISTORY_SHOES[code], HISTORY_SHOES[code])
                table_players = min(players[code], HISTORY_BOUNDLESS_PLAYERS)
                opening = opens + timedelta(minutes=7 * number)
                stored += self.deal(
                    tables[code],
                    earlier,
                    table_shoes,
                    table_players,
                    seed + 100 * back + number,
                    opening,
                    quiet=True,
                )
            run = self.daily_job(earlier, figures_only=True, quiet=True)
            self.stdout.write(f"  {earlier}: {stored} rounds stored, figures of run {run.pk} ({run.status})")
        self.stdout.write(f"Earlier days played and reported in {time.perf_counter() - started:.1f} s")

    def deal(
        self, table: Table, day: date, shoes: int, players: int, seed: int, opens, *, quiet: bool = False
    ) -> int:
        """Deal the shoes through ingest and return the rounds stored. `quiet`: an earlier day, without
        planted errors, and nothing printed."""
        rules = configuration_in_force(table, opens).rule_set
        documents = simulate(
            rules,
            table=table.code,
            shoes=shoes,
            players=players,
            seed=seed,
            start=opens,
            wrong_payout_rate=0.0 if quiet else WRONG_PAYOUT_RATE,
            cancel_rate=0.0 if quiet else CANCEL_RATE,
            dealt_by=dealer_shifts(table.code, day),
        )
        stored = resent = 0
        batch = []
        for document in documents:
            batch.append(_of_the_day(document, day))
            if len(batch) == BATCH:
                stored, resent = _ingest(batch, stored, resent)
                batch = []
        stored, resent = _ingest(batch, stored, resent)
        if quiet:
            return stored
        rounds = Round.objects.filter(table=table, round_id__startswith=_prefix(day))
        self.stdout.write(
            f"  {table.code}: {stored} rounds stored ({resent} already), {players} players, "
            f"{sum(rounds.values_list('bet_count', flat=True)):,} bets, "
            f"{rounds.filter(finding_count__gt=0).count()} with findings"
        )
        return stored

    def server_cancelled_rounds(self, tables, supervisor) -> None:
        """Each incident ingest opened for the rounds the game server cancelled ends with them
        cancelled: every bet refunded what it wagered (the table opens again)."""
        for incident in Incident.objects.filter(table__in=tables, status="open").select_related("table"):
            waiting = list(unrefunded_server_cancelled_rounds(incident).defer("document"))
            incident_note_add(incident=incident, author=supervisor, text="Demo: the game server reconnected.")
            if not waiting:
                incident_resume(incident=incident, resumed_by=supervisor, note="Demo: play resumed.")
                continue
            incident_cancel_round(
                incident=incident,
                round_=waiting[0],
                cancelled_by=supervisor,
                reason="Network failure: the game server could not complete the round.",
            )
            self.stdout.write(
                f"  incident {incident.pk}: {incident.table.code}, {len(waiting)} round(s) the game server "
                "cancelled, every bet refunded"
            )

    def malfunction_void(self, table: Table, day: date, supervisor, second_supervisor) -> None:
        """A malfunction hits a settled round at the table: one supervisor opens an incident and
        proposes the round's void, a second approves it, and play resumes."""
        if Void.objects.filter(round__table=table, round__round_id__startswith=_prefix(day)).exists():
            return
        played = Round.objects.filter(
            table=table, round_id__startswith=_prefix(day), status="completed", correction=None
        ).defer("document")
        round_ = played.order_by("opened_at")[played.count() // 2]  # mid-day
        incident = incident_open(
            table=table,
            kind="malfunction",
            opened_by=supervisor,
            note=f"The card reader failed during round {round_.round_id}: its cards cannot be verified.",
            round_=round_,
        )
        incident_note_add(
            incident=incident,
            author=supervisor,
            text="Studio checked the camera feed: the round's cards are not identifiable.",
        )
        void = void_propose(
            round_=round_,
            proposed_by=supervisor,
            reason="Malfunction: the card reader failed; all plays and pays void.",
            incident=incident,
        )
        void_approve(
            void=void,
            decided_by=second_supervisor,
            comment="Checked the studio log and the video: void the round.",
        )
        incident_resume(incident=incident, resumed_by=supervisor, note="Demo: card reader replaced.")
        self.stdout.write(
            f"  incident {incident.pk}: malfunction at {table.code}, round {round_.round_id} voided "
            f"(void {void.pk}, proposed by {supervisor}, approved by {second_supervisor})"
        )

    def resettle_one_wrong_payout(self, day: date, compliance, supervisor) -> None:
        wrong = (
            Bet.objects.filter(
                round__round_id__startswith=_prefix(day),
                round__status="completed",
                round__resettlements=None,
                round__correction=None,
            )
            .to_adjust()
            .select_related("round")
            .order_by("round__opened_at")
            .first()
        )
        if wrong is None:
            return
        resettlement = resettlement_propose(
            round_=wrong.round, proposed_by=compliance, reason="Demo: the server paid a bet wrong."
        )
        resettlement_approve(
            resettlement=resettlement,
            decided_by=supervisor,
            comment="Demo: checked the cards, pay as computed.",
        )
        self.stdout.write(f"  re-settlement {resettlement.pk} of round {wrong.round.round_id} approved")

    def daily_job(self, day: date, *, figures_only: bool = False, quiet: bool = False) -> ReportRun:
        from reports.services import report_run_start

        run = report_run_start(day=day, trigger=RunTrigger.DEMO, figures_only=figures_only)
        run = ReportRun.objects.get(pk=run.pk)  # eager here: the job ran when the run was committed
        if not quiet:
            charts = ReportChart.objects.filter(run=run).count()
            seconds = run.seconds or 0
            self.stdout.write(
                f"Daily job run {run.pk} for {day}: {run.status} in {seconds:.1f} s ({charts} charts)"
            )
        if run.error:
            raise CommandError(run.error)
        for document in ReportDocument.objects.filter(run=run):
            self.stdout.write(
                f"  {document.get_kind_display()}: {document_file(document)} ({document.pages} pages)"
            )
        return run


def _prefix(day: date) -> str:
    return f"{day:%Y%m%d}-"


def dealer_shifts(code: str, day: date) -> Callable[[datetime], str]:
    """Who deals a round opened at a moment of gaming day `day` at table `code`: its dealers in turn,
    a SHIFT each from the day's start."""
    starts, dealers = gaming_day(day).starts_at, DEALERS[code]
    return lambda opened: dealers[(opened - starts) // SHIFT % len(dealers)]


def _of_the_day(document: dict, day: date) -> dict:
    """The simulator names shoes, rounds and bets from the table alone: the day makes them unique."""
    prefix = _prefix(day)
    document = json.loads(json.dumps(document))  # as a game server's JSON arrives
    document["round_id"] = prefix + document["round_id"]
    document["shoe"] = prefix + document["shoe"]
    for bet in document["bets"]:
        bet["bet_id"] = prefix + bet["bet_id"]
    return document


def _ingest(batch: list[dict], stored: int, resent: int) -> tuple[int, int]:
    if batch:
        for result in rounds_ingest(documents=batch):
            if result.conflict:
                raise CommandError(result.conflict.message)
            stored, resent = (stored + 1, resent) if result.created else (stored, resent + 1)
    return stored, resent
