"""Two corrections of one round at the same moment (PostgreSQL: real row locks, two connections).

Whichever order they come in, exactly one corrects the round, the other is refused with a message,
and no bet ends with two kinds of correction (an adjustment and a refund, or a void line).
"""

import threading
import time

import pytest
from django.db import connection

from rounds import services
from rounds.models import RoundCorrection, Void
from tests.rounds.corrections_support import (  # noqa: F401
    demo,
    demo_user,
    second_supervisor,
    wrongly_paid,
)
from tests.rounds.test_one_correction import bets_corrected_twice

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

HEAD_START = 0.1  # seconds the first step starts before the second
HOLD = 0.4  # seconds the first step holds the round once it has checked it


@pytest.fixture
def slow_check(monkeypatch):
    """The step that checks the round first holds it a while before writing: the other step
    arrives while it does (and waits for the round's lock)."""
    from rounds.services import corrections

    check = corrections.correction_refusal
    held = threading.Event()

    def slow(round_):
        refusal = check(round_)
        racing = threading.current_thread() is not threading.main_thread()  # not the test's setup
        if racing and not held.is_set():
            held.set()
            time.sleep(HOLD)
        return refusal

    monkeypatch.setattr(corrections, "correction_refusal", slow)


def race(first, second) -> dict[str, BaseException | None]:
    """Run `first` and, HEAD_START later, `second`, each in its own thread and connection."""
    outcome: dict[str, BaseException | None] = {}

    def run(name, step, delay):
        try:
            time.sleep(delay)
            step()
            outcome[name] = None
        except BaseException as error:  # noqa: BLE001 - asserted by the test
            outcome[name] = error
        finally:
            connection.close()

    threads = [
        threading.Thread(target=run, args=("first", first, 0)),
        threading.Thread(target=run, args=("second", second, HEAD_START)),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return outcome


def one_won(outcome, winner: str, message: str) -> None:
    """The winner corrected the round; the loser was refused with `message`, having waited for the
    round's lock and then found the correction ("was ..."), not at the primary key ("while this
    step ran", the net under the lock: tests/rounds/test_one_correction.py)."""
    loser = "second" if winner == "first" else "first"
    assert outcome[winner] is None, outcome[winner]
    assert isinstance(outcome[loser], services.TransitionRefused), outcome[loser]
    assert message in str(outcome[loser])
    assert "while this step ran" not in str(outcome[loser])
    assert bets_corrected_twice() == []


@pytest.mark.usefixtures("demo", "slow_check")
@pytest.mark.parametrize("order", ["resettlement first", "cancel first"])
def test_approving_a_resettlement_and_cancelling_the_round_at_once(order):
    round_ = wrongly_paid()
    resettlement = services.resettlement_propose(
        round_=round_, proposed_by=demo_user("compliance"), reason="D23-1 paid 5.00 short"
    )
    supervisor = demo_user("supervisor")
    incident = services.incident_open(
        table=round_.table, kind="malfunction", opened_by=supervisor, note="Shuffler jammed"
    )

    def approve():
        services.resettlement_approve(resettlement=resettlement, decided_by=supervisor, comment="ok")

    def cancel():
        services.incident_cancel_round(
            incident=incident, round_=round_, cancelled_by=supervisor, reason="malfunction"
        )

    if order == "resettlement first":
        outcome = race(approve, cancel)
        one_won(outcome, "first", f"re-settlement {resettlement.pk}")
    else:
        outcome = race(cancel, approve)
        one_won(outcome, "second", "completed and settled")
    assert RoundCorrection.objects.get(round=round_).kind == "resettled"


@pytest.mark.usefixtures("demo", "slow_check")
@pytest.mark.parametrize("order", ["resettlement first", "void first"])
def test_approving_a_resettlement_and_a_void_at_once(order):
    """Both proposals stand (as two proposals made before this rule could): two supervisors approve
    them at the same moment."""
    round_ = wrongly_paid()
    resettlement = services.resettlement_propose(
        round_=round_, proposed_by=demo_user("compliance"), reason="D23-1 paid 5.00 short"
    )
    void = Void.objects.create(round=round_, reason="Shuffler jammed", proposed_by=second_supervisor())

    def approve_resettlement():
        services.resettlement_approve(
            resettlement=resettlement, decided_by=demo_user("supervisor"), comment="ok"
        )

    def approve_void():
        services.void_approve(void=void, decided_by=demo_user("supervisor"), comment="seen")

    if order == "resettlement first":
        one_won(race(approve_resettlement, approve_void), "first", f"re-settlement {resettlement.pk}")
        assert RoundCorrection.objects.get(round=round_).kind == "resettled"
        assert not void.lines.exists()
    else:
        one_won(race(approve_void, approve_resettlement), "first", f"voided (void {void.pk}")
        assert RoundCorrection.objects.get(round=round_).kind == "voided"
        assert not resettlement.adjustments.exists()
