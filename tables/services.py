"""Every write to tables: creating them, proposing and deciding changes to their rules, opening, pausing
and closing them."""

from collections.abc import Callable, Mapping
from datetime import datetime

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone

from blackjack.rules import RuleError, preset
from core.refusals import OwnDecisionRefused, TransitionRefused, refused_when_taken, require_reason
from core.templatetags.pitboss import local_time_text
from ledger.services import ledger_append

from .choices import ConfigurationStatus, Currency, Game, TableStatus
from .guardrail import APPROVE_RTP_FALL, Approvals, approvals_of, crossing_text
from .models import ConfigurationOdds, Table, TableConfiguration, TableStatusChange
from .published import carry_published_figures
from .selectors import latest_approved, latest_version, open_proposal, previous_approved
from .tasks import configuration_odds_schedule

# Checks another app adds (apps depend downwards: tables never imports them). Each is called as
# `guard(table, new_status)` before a status change and returns a message to refuse it, or None.
StatusGuard = Callable[[Table, str], str | None]
status_guards: list[StatusGuard] = []

DECIDE = "tables.decide_tableconfiguration"  # the supervisor's permission

# What a supervisor may change of a game's preset rules; the rest is the game itself.
CHANGEABLE_RULES = frozenset({"seats", "side_options", "auto_play", "strategy_overrides"})


@transaction.atomic
def table_code_taken(code: str) -> str | None:
    """Why `code` cannot name a new table (another has it), or None. The new-table form asks too,
    to show it with its other errors."""
    if Table.objects.filter(code=code).exists():
        return f"The code {code} is already taken."
    return None


@transaction.atomic
def table_create(
    *,
    code: str,
    name: str,
    game: str,
    currency: str,
    studio: str,
    dealer: str = "",
    created_by,
    reason: str = "New table",
    first_version_from: datetime | None = None,
) -> Table:
    """A new table, closed, with version 1 of its configuration: the game's preset rules, in force
    from now (or from `first_version_from`: no round of a new table can have been checked yet)."""
    if game not in Game.values:
        raise ValidationError({"game": f"Unknown game {game!r}: one of {', '.join(Game.values)}."})
    if currency not in Currency.values:
        raise ValidationError({"currency": f"Unknown currency {currency!r}."})
    if taken := table_code_taken(code):
        raise ValidationError({"code": taken})
    table = Table(code=code, name=name, game=game, currency=currency, studio=studio, dealer=dealer)
    table.full_clean()
    table._change_reason = reason
    with refused_when_taken("code", f"The code {code} is already taken."):
        table.save()
    first = TableConfiguration.objects.create(
        table=table,
        status=ConfigurationStatus.APPROVED,  # the game's own rule sheet: nothing to decide
        version=1,
        valid_from=first_version_from or timezone.now(),
        rules=preset(game).to_dict(),
        reason=reason,
        created_by=created_by,
    )
    ledger_append("table_configuration", [first])
    configuration_odds_schedule(first)
    return table


@transaction.atomic
def table_update(*, table: Table, changed_by, reason: str, **fields) -> Table:
    """Change a table's name, studio or dealer on duty; kept in its history with the reason."""
    reason = require_reason(reason)
    allowed = {"name", "studio", "dealer"}
    for name in fields:
        if name not in allowed:
            raise ValidationError({name: "This cannot be changed here."})
    # Read afresh and save only these fields: a stale `table` must not undo a status change made since.
    fresh = Table.objects.select_for_update().get(pk=table.pk)
    for name, value in fields.items():
        setattr(fresh, name, value)
    fresh.full_clean()
    fresh._change_reason = reason
    fresh._history_user = changed_by
    fresh.save(update_fields=list(fields))
    for name, value in fields.items():
        setattr(table, name, value)
    return fresh


@transaction.atomic
def configuration_propose(
    *,
    table: Table,
    changes: Mapping,
    proposed_by,
    reason: str,
    valid_from: datetime | None = None,
    seen_version: int | None = None,
    rtp_fall_reason: str = "",
) -> TableConfiguration:
    """Propose a new configuration version: the last approved version's rules with `changes` (the
    RuleSet's stored form), to come into force at `valid_from` (None: as soon as approved) once a
    second supervisor approves it. Its odds are scheduled at once, so that the approver sees them.

    `seen_version` is the table's latest version number the proposer's form showed; if a version was
    proposed or decided since, the proposal is refused rather than built on rules the proposer did not
    see. One proposal per table is open at a time. Every problem of the change is named at once.
    `rtp_fall_reason`: why an RTP may fall past the guardrail (tables.guardrail), if the proposer
    knows it will; it can be written on the proposal later (`configuration_explain_fall`).
    """
    table = Table.objects.select_for_update().get(pk=table.pk)  # one change to a table's versions at a time
    latest = latest_version(table)
    if seen_version is not None and seen_version != latest.version:
        raise ValidationError(
            {
                "__all__": f"Version {latest.version} of {table.code} was {_done(latest)} since you opened "
                "this form: look at it and start again from it."
            }
        )
    proposal = open_proposal(table)
    if proposal is not None:
        raise ValidationError(
            {
                "__all__": f"Version {proposal.version} of {table.code}, proposed by {proposal.created_by}, "
                "awaits a decision: it is approved or rejected before another change is proposed."
            }
        )
    base = latest_approved(table)
    errors: dict[str, list[str]] = {}
    try:
        reason = require_reason(reason)
    except ValidationError as error:
        errors.update(error.message_dict)
    now = timezone.now()
    if valid_from is not None and valid_from < now:
        errors["valid_from"] = ["A new version cannot start in the past: choose a later time, or none."]
    elif base.valid_from >= (valid_from or now):
        errors["valid_from"] = [
            f"Version {base.version} starts {local_time_text(base.valid_from)}: "
            "the new version must start after it."
        ]
    changeable = ", ".join(sorted(CHANGEABLE_RULES))
    checked = {}  # the changes the engine checks: all but those refused here already
    for name, value in changes.items():
        if name not in CHANGEABLE_RULES:
            errors[f"rules.{name}"] = [f"Not changeable at a table (changeable: {changeable})."]
        else:
            checked[name] = value
    offered = {option.kind for option in preset(table.game).side_options}
    side_options = changes.get("side_options")
    if isinstance(side_options, Mapping):
        for kind in side_options:
            if kind not in offered:
                errors[f"rules.side_options.{kind}"] = [f"{table.get_game_display()} has no {kind} option."]
        checked["side_options"] = {kind: option for kind, option in side_options.items() if kind in offered}
    rules = None
    try:
        rules = base.rule_set.with_changes(checked)
    except RuleError as error:
        for problem in error.problems:
            errors.setdefault(f"rules.{problem.field}", []).append(problem.message)
    if rules == base.rule_set and not any(key.startswith("rules") for key in errors):
        errors["rules"] = [f"Nothing changes: the rules are those of version {base.version}."]
    if errors:
        raise ValidationError(errors)
    with refused_when_taken("__all__", f"Another change to {table.code} was proposed at the same moment."):
        configuration = TableConfiguration.objects.create(
            table=table,
            version=latest.version + 1,
            valid_from=valid_from or now,
            requested_from=valid_from,
            rules=rules.to_dict(),
            reason=reason,
            rtp_fall_reason=(rtp_fall_reason or "").strip(),
            created_by=proposed_by,
            status=ConfigurationStatus.PROPOSED,
        )
    configuration_odds_schedule(configuration)
    return configuration


def _done(configuration: TableConfiguration) -> str:
    by = configuration.decided_by or configuration.created_by
    return f"{configuration.get_status_display().lower()} by {by}"


def _open(configuration: TableConfiguration) -> TableConfiguration:
    """The proposal read afresh under its table's lock, refused unless it still awaits a decision."""
    Table.objects.select_for_update().get(pk=configuration.table_id)
    configuration = TableConfiguration.objects.select_related("table").get(pk=configuration.pk)
    if configuration.status != ConfigurationStatus.PROPOSED:
        raise TransitionRefused(
            {
                "__all__": f"Version {configuration.version} of {configuration.table.code} was already "
                f"{_done(configuration)}: a decision is not made twice."
            }
        )
    return configuration


def _decidable(configuration: TableConfiguration, decided_by, permission: str) -> TableConfiguration:
    if not decided_by.has_perm(permission):
        raise PermissionDenied("Your role does not decide this.")
    configuration = _open(configuration)
    if configuration.created_by_id == decided_by.pk:
        others = "another supervisor" if permission == DECIDE else "another compliance officer"
        raise OwnDecisionRefused(
            f"You proposed version {configuration.version}: {others} approves or rejects it."
        )
    return configuration


def _decide(
    configuration: TableConfiguration, status: str, decided_by, comment: str, at: datetime
) -> TableConfiguration:
    configuration.status = status
    configuration.decided_by = decided_by
    configuration.decided_at = at
    configuration.decision_comment = comment
    configuration.save(update_fields=["status", "decided_by", "decided_at", "decision_comment", "valid_from"])
    return configuration


@transaction.atomic
def configuration_approve(
    *, configuration: TableConfiguration, decided_by, comment: str = ""
) -> TableConfiguration:
    """Approve a proposed version (a supervisor who did not propose it, once its odds are worked out):
    it comes into force at the time asked for, or now if that has passed; never in the past. Past the
    guardrail (tables.guardrail) it needs the proposer's reason and a compliance officer's approval
    first."""
    configuration = _decidable(configuration, decided_by, DECIDE)
    approvals = _odds_known(configuration)
    if approvals.needs_compliance or configuration.compliance_approved_by_id:
        if configuration.compliance_approved_by_id == decided_by.pk:
            raise OwnDecisionRefused(
                "You approved this version for compliance: a supervisor who did neither approves it."
            )
        if not configuration.compliance_approved_by_id:
            raise TransitionRefused(
                {
                    "__all__": f"Version {configuration.version} crosses the guardrail "
                    f"({crossing_text(approvals.crossings)}): a compliance officer approves it first."
                }
            )
        configuration.needs_compliance = True
    now = timezone.now()
    configuration.valid_from = max(configuration.requested_from or now, now)
    base = previous_approved(configuration)
    if base is not None and configuration.valid_from <= base.valid_from:
        raise ValidationError(
            {
                "__all__": f"Version {base.version} starts later ({local_time_text(base.valid_from)}): "
                "this one cannot come into force before it; reject it."
            }
        )
    configured = _decide(
        configuration, ConfigurationStatus.APPROVED, decided_by, (comment or "").strip(), now
    )
    carry_published_figures(configured, base)
    ledger_append("table_configuration", [configured])
    return configured


def _odds_known(configuration: TableConfiguration) -> Approvals:
    odds = ConfigurationOdds.objects.filter(configuration=configuration).first()
    if odds is None or not odds.current:
        raise TransitionRefused(
            {
                "__all__": f"The odds of version {configuration.version} are still being computed: "
                "it is decided once its RTP is shown beside the version in force."
            }
        )
    return approvals_of(configuration)


@transaction.atomic
def configuration_reject(
    *, configuration: TableConfiguration, decided_by, comment: str
) -> TableConfiguration:
    """Reject a proposed version, saying why (a supervisor who did not propose it); it is never in force."""
    if not comment or not comment.strip():
        raise ValidationError({"comment": "Say why: a rejection is kept with its comment."})
    configuration = _decidable(configuration, decided_by, DECIDE)
    return _decide(configuration, ConfigurationStatus.REJECTED, decided_by, comment.strip(), timezone.now())


# --- the guardrail: the proposer's reason, and compliance --------------------------------------------

_NOT_PAST_GUARDRAIL = "Version %s does not cross the guardrail: supervisors decide it."


@transaction.atomic
def configuration_explain_fall(
    *, configuration: TableConfiguration, proposer, reason: str
) -> TableConfiguration:
    """The proposer says why the version may take an RTP past the guardrail; written again until a
    compliance officer approves it."""
    reason = reason.strip() if reason else ""
    if not reason:
        raise ValidationError({"rtp_fall_reason": "Say why the RTP falls: compliance reads it."})
    configuration = _open(configuration)
    if configuration.created_by_id != proposer.pk:
        raise PermissionDenied("Only the version's proposer says why its RTP falls.")
    if configuration.compliance_approved_by_id:
        raise TransitionRefused(
            {"rtp_fall_reason": "Compliance approved the version with the reason it read: it stays."}
        )
    configuration.rtp_fall_reason = reason
    configuration.save(update_fields=["rtp_fall_reason"])
    return configuration


@transaction.atomic
def configuration_compliance_approve(
    *, configuration: TableConfiguration, decided_by, comment: str = ""
) -> TableConfiguration:
    """A compliance officer (not the proposer) approves a version past the guardrail, having read the
    proposer's reason; a supervisor's approval then puts it in force."""
    configuration = _decidable(configuration, decided_by, APPROVE_RTP_FALL)
    approvals = _odds_known(configuration)
    if configuration.compliance_approved_by_id:
        raise TransitionRefused({"__all__": "A compliance officer approved this version already."})
    if not approvals.needs_compliance:
        raise TransitionRefused({"__all__": _NOT_PAST_GUARDRAIL % configuration.version})
    if not configuration.rtp_fall_reason:
        raise TransitionRefused(
            {"__all__": "The proposer has not said why the RTP falls: it is approved once they have."}
        )
    configuration.needs_compliance = True
    configuration.compliance_approved_by = decided_by
    configuration.compliance_approved_at = timezone.now()
    configuration.compliance_comment = (comment or "").strip()
    configuration.save(
        update_fields=[
            "needs_compliance",
            "compliance_approved_by",
            "compliance_approved_at",
            "compliance_comment",
        ]
    )
    return configuration


@transaction.atomic
def configuration_compliance_reject(
    *, configuration: TableConfiguration, decided_by, comment: str
) -> TableConfiguration:
    """A compliance officer (not the proposer) rejects a version past the guardrail, saying why."""
    if not comment or not comment.strip():
        raise ValidationError({"comment": "Say why: a rejection is kept with its comment."})
    configuration = _decidable(configuration, decided_by, APPROVE_RTP_FALL)
    if configuration.compliance_approved_by_id:
        raise TransitionRefused(
            {"__all__": "A compliance officer approved this version already: a supervisor decides it now."}
        )
    configuration.needs_compliance = _odds_known(configuration).needs_compliance
    if not configuration.needs_compliance:
        raise TransitionRefused({"__all__": _NOT_PAST_GUARDRAIL % configuration.version})
    configuration.save(update_fields=["needs_compliance"])
    return _decide(configuration, ConfigurationStatus.REJECTED, decided_by, comment.strip(), timezone.now())


@transaction.atomic
def table_set_status(*, table: Table, status: str, changed_by, reason: str) -> TableStatusChange:
    """Open, pause or close a table; the change goes into the game availability log (`changed_by`
    None: the game server's doing, a cancelled round that ingest received)."""
    reason = require_reason(reason)
    if status not in TableStatus.values:
        raise ValidationError({"status": f"Unknown status {status!r}."})
    table = Table.objects.select_for_update().get(pk=table.pk)
    if table.status == status:
        raise ValidationError({"status": f"{table.code} is already {table.get_status_display().lower()}."})
    for guard in status_guards:
        refusal = guard(table, status)
        if refusal:
            raise ValidationError({"status": refusal})
    change = TableStatusChange.objects.create(
        table=table, from_status=table.status, to_status=status, reason=reason, changed_by=changed_by
    )
    table.status = status
    table.save(update_fields=["status"])
    return change
