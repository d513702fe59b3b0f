"""python manage.py seed_demo: the demo's tables, limits, players, one user per role and a second
supervisor (a void is proposed by one supervisor and approved by another), and the published RTP of
the Deluxe and Boundless main games.

It lives in the `demo` app, above every other app, because it fills every app.
Running it again changes nothing that exists.
"""

from datetime import UTC, datetime
from decimal import Decimal

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from accounts.roles import ROLE_SLUGS
from accounts.second_factor import required_for, totp_enrol
from accounts.services import user_create
from demo.second_factor import demo_secret
from limits.models import Player
from limits.services import personal_limit_set, player_create, table_limit_set
from staff.services import account_create
from tables.models import PublishedRtp, Table, TableStatusChange
from tables.published import published_rtp_enter
from tables.services import table_create, table_set_status

TABLES = [
    ("DLX1", "Deluxe Blackjack 1", "deluxe", "Studio Malta A", "Ana"),
    ("BND1", "Boundless Blackjack 1", "boundless", "Studio Malta B", "Ben"),
    ("CLS1", "BlackJack Classic 1", "classic", "Studio Manila A", "Carla"),
    ("MPB1", "Multi-player Blackjack 1", "multiplayer", "Studio Riga A", "Dmitri"),
]
# The demo tables run their rule sheets' presets from the year the sheets were published, so
# that the fixture rounds of the tests (and any simulated day) fall under version 1.
# An account one administrator asks for, waiting for the other (the two-administrator rule).
AWAITING_ANALYST = "analyst"
RULES_PUBLISHED = datetime(2026, 1, 1, tzinfo=UTC)
MAIN_RANGE = ("2.50", "2500.00")
BEHIND_RANGE = ("1.00", "25.00")
SIDE_RANGE = ("0.50", "100.00")

PLAYERS = [
    ("P1001", "Alice Martin", "real"),
    ("P1003", "Bruno Costa", "real"),
    ("P2002", "Chiara Bianchi", "real"),
    ("P3001", "Dara Okafor", "real"),
    ("P6001", "Emil Novak", "real"),
    ("T9001", "Trial visitor", "trial"),
    ("F9001", "Play-for-fun guest", "play_for_fun"),
]
# Players of the simulated day (ids as blackjack.simulate names them) who asked for a lower
# maximum: the bets they place above it show as breached limits.
SELF_LIMITED = [("PDLX10002", "Fatima Haddad"), ("PBND10007", "Gustav Lind"), ("PCLS10003", "Hana Sato")]
# The operators' published RTP of the main game, entered by compliance: Deluxe's is above what the game
# gives at best play (99.5169 %), so it shows on compliance's queue and the sheet states the computed one.
PUBLISHED = {
    "DLX1": ("99.53", "Deluxe Blackjack: rules for players, 2026 edition"),
    "BND1": ("99.46", "Boundless Blackjack: rules for players, 2026 edition"),
}


class Command(BaseCommand):
    help = (
        "Create the demo tables (DLX1, BND1, CLS1, MPB1) with limits, a few players, one user per role "
        "a second supervisor and administrator, and an account awaiting a second administrator."
    )

    @transaction.atomic
    def handle(self, *args, **options):
        supervisor = self.users()
        self.account_awaiting()
        for code, name, game, studio, dealer in TABLES:
            if Table.objects.filter(code=code).exists():
                continue
            table = table_create(
                code=code,
                name=name,
                game=game,
                currency="EUR",
                studio=studio,
                dealer=dealer,
                created_by=supervisor,
                reason="Demo table",
                first_version_from=RULES_PUBLISHED,
            )
            for kind in table.configurations.get().rule_set.offered_kinds:
                if kind == "insurance":
                    continue  # follows from the main bet's range
                low, high = MAIN_RANGE if kind == "main" else BEHIND_RANGE if kind == "behind" else SIDE_RANGE
                table_limit_set(
                    table=table,
                    kind=kind,
                    min_stake=Decimal(low),
                    max_stake=Decimal(high),
                    changed_by=supervisor,
                    reason="Demo limits",
                )
            opening = table_set_status(
                table=table, status="open", changed_by=supervisor, reason="Demo: studio on air"
            )
            # Demo history: on air since its rules were, so the rounds of any past day were played at an
            # open table (a round opened at a closed one is a finding).
            TableStatusChange.objects.filter(pk=opening.pk).update(changed_at=RULES_PUBLISHED)
            self.stdout.write(f"table {code}: {name} ({game}), open")
            if code in PUBLISHED:
                self.published_figure(table, *PUBLISHED[code])
        for external_id, display_name, account_type in PLAYERS:
            if not Player.objects.filter(external_id=external_id).exists():
                player_create(
                    external_id=external_id,
                    display_name=display_name,
                    account_type=account_type,
                    currency="EUR",
                    created_by=supervisor,
                    reason="Demo player",
                )
        for external_id, display_name in SELF_LIMITED:
            if not Player.objects.filter(external_id=external_id).exists():
                limited = player_create(
                    external_id=external_id,
                    display_name=display_name,
                    currency="EUR",
                    created_by=supervisor,
                    reason="Demo player",
                )
                # Demo history: the limit was set long before the simulated day it is checked on.
                personal_limit_set(
                    player=limited,
                    max_stake=Decimal("10.00"),
                    changed_by=supervisor,
                    reason="Demo: the player asked for a maximum of 10.00",
                    backdated_to=RULES_PUBLISHED,
                )
        alice = Player.objects.get(external_id="P1001")
        if not alice.personal_limits.exists():
            personal_limit_set(
                player=alice,
                max_stake=Decimal("200.00"),
                changed_by=supervisor,
                reason="Demo: the player asked for a lower maximum",
            )
        self.stdout.write(f"players: {Player.objects.count()}")

    def published_figure(self, table: Table, rtp: str, document: str) -> None:
        entry = published_rtp_enter(
            configuration=table.configurations.get(),
            kind="main",
            rtp=Decimal(rtp),
            source_document=document,
            source_url=f"https://operator.example/rules/{table.game}-2026.pdf",
            published_on=RULES_PUBLISHED.date(),
            entered_by=get_user_model().objects.get(username="compliance"),
        )
        # Demo history: entered when the rules were published, so every past day's sheet states it.
        PublishedRtp.objects.filter(pk=entry.pk).update(entered_at=RULES_PUBLISHED)

    def account_awaiting(self) -> None:
        """A compliance analyst's account asked for by one administrator: it waits for the other."""
        User = get_user_model()
        if User.objects.filter(username=AWAITING_ANALYST).exists():
            return
        account_create(
            actor=User.objects.get(username="administrator"),
            username=AWAITING_ANALYST,
            email=f"{AWAITING_ANALYST}@pitboss.example",
            role=ROLE_SLUGS["compliance"],
            reason="New compliance analyst, starts Monday (ticket HR-1042)",
        )
        self.stdout.write(f"user {AWAITING_ANALYST} (Compliance) awaits administrator-2's approval")

    def users(self):
        User = get_user_model()
        first = None
        # One user per role, a second supervisor (a void one supervisor proposes, another approves) and
        # a second administrator (a role granted by one administrator, approved by another).
        accounts = [(slug.replace("_", "-"), role) for slug, role in ROLE_SLUGS.items()]
        accounts.append(("supervisor-2", ROLE_SLUGS["supervisor"]))
        accounts.append(("administrator-2", ROLE_SLUGS["administrator"]))
        for username, role in accounts:
            password = f"{username}-demo"
            user = User.objects.filter(username=username).first()
            if user is None:
                # An address each: make demo's alerts are emailed to the worker's console.
                email = f"{username}@pitboss.example"
                user = user_create(username=username, password=password, role=role, email=email)
                self.stdout.write(f"user {username} ({role}), password {password}")
                if required_for(user):
                    totp_enrol(user, demo_secret(username))
                    self.stdout.write(
                        f"  its second factor: TOTP secret {demo_secret(username)}, "
                        f"or the current code by manage.py demo_code {username}"
                    )
            else:
                self.stdout.write(f"user {username} ({role}) exists (password {password} unless changed)")
            first = first or user
        return first
