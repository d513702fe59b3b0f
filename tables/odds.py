"""The theoretical RTP of each configuration version: worked out once, in a Celery task, and kept.

A new version (a new table, a configuration change) schedules `tables.tasks.configuration_odds`
when its transaction commits. The figures of a version are never recomputed: its rules never
change. A version whose rules equal an earlier one's takes that one's figures.
"""

import hashlib
import json
import time
from dataclasses import dataclass
from decimal import Decimal

from django.db import IntegrityError, transaction

from rounds.engine.odds import theoretical_odds
from rounds.engine.rules import kind_label

from .models import ConfigurationOdds, TableConfiguration

# A difference from the operator's published RTP above this is flagged on the table page.
PUBLISHED_TOLERANCE = Decimal("0.05")


def rules_digest(configuration: TableConfiguration) -> str:
    text = json.dumps(configuration.rule_set.to_dict(), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def configuration_odds_schedule(configuration: TableConfiguration) -> None:
    """Work out the version's figures in a Celery task once the version is committed."""
    from .tasks import configuration_odds

    transaction.on_commit(lambda: configuration_odds.delay(configuration.pk))


def configuration_odds_compute(*, configuration: TableConfiguration) -> ConfigurationOdds:
    """The version's figures: those already kept, an identical version's, or worked out now."""
    kept = ConfigurationOdds.objects.filter(configuration=configuration).first()
    if kept:
        return kept
    digest = rules_digest(configuration)
    same_rules = ConfigurationOdds.objects.filter(rules_sha256=digest, copied_from=None).first()
    if same_rules:
        fields = {"figures": same_rules.figures, "seconds": 0.0, "copied_from": same_rules}
    else:
        started = time.perf_counter()
        odds = theoretical_odds(configuration.rule_set)
        fields = {"figures": _figures(odds), "seconds": round(time.perf_counter() - started, 3)}
    try:
        with transaction.atomic():
            return ConfigurationOdds.objects.create(
                configuration=configuration, rules_sha256=digest, **fields
            )
    except IntegrityError:  # another worker kept them a moment ago
        return ConfigurationOdds.objects.get(configuration=configuration)


def _figures(odds) -> dict:
    return {
        "rtp": {kind: str(rtp) for kind, rtp in odds.rtp.items()},
        "patterns": {
            kind: {pattern: float(probability) for pattern, probability in patterns.items()}
            for kind, patterns in odds.patterns.items()
        },
        "strategy": odds.strategy,
    }


@dataclass(frozen=True)
class RtpLine:
    """One bet kind's theoretical RTP for the table page."""

    kind: str
    label: str
    rtp: Decimal
    published: Decimal | None = None

    @property
    def house_edge(self) -> Decimal:
        return 100 - self.rtp

    @property
    def difference(self) -> Decimal | None:
        return None if self.published is None else self.rtp - self.published

    @property
    def flagged(self) -> bool:
        return self.difference is not None and abs(self.difference) > PUBLISHED_TOLERANCE


def rtp_lines(odds: ConfigurationOdds) -> list[RtpLine]:
    """Each offered bet kind's theoretical RTP, the main bet against the published figure where the
    game has one."""
    rule_set = odds.configuration.rule_set
    rtp = odds.figures["rtp"]
    # In the order the rules offer them: a jsonb object does not keep its keys' order.
    return [
        RtpLine(
            kind, kind_label(kind), Decimal(rtp[kind]), rule_set.published_rtp if kind == "main" else None
        )
        for kind in rule_set.offered_kinds
        if kind in rtp
    ]
