"""Wrong passwords, counted in the database so that every process and server counts the same ones,
and what they hold up before the next password is checked (accounts/sign_in.py asks, for the
portal's sign-in page and the admin's; django-axes's lock of a username at one address is apart).

- Per account, from all addresses together: at most PITBOSS_SIGN_IN_ACCOUNT_GUESSES_PER_HOUR wrong
  passwords for one username in any hour, kept so by a wait, never a lock. The first FREE in an hour
  wait for nothing; after each further one the next attempt waits, since that failure, FIRST_WAIT
  seconds doubled with each failure up to `longest_wait(per_hour)`: the shortest cap with which
  no hour holds more than `per_hour` (see there). Any username typed is counted the same, an
  account's or not, so the waits tell nothing of which usernames exist.
- The addresses of the username's last KNOWN_ADDRESSES successful sign-ins within KNOWN_FOR are
  exempt from that wait (not from the locks): the real user, at their usual desk, never waits.
- Per address, whatever the usernames: PITBOSS_SIGN_IN_ADDRESS_FAILURE_LIMIT wrong passwords within
  PITBOSS_SIGN_IN_LOCKOUT_MINUTES lock the address until fewer are (a password-spraying address,
  which would otherwise also cost a password hash per attempt without end).

An attempt takes its turn (turn_take) before its password is checked and counts as wrong from then
on; `sign_in_succeeded` takes it back when the password was right. Turns for one username are taken
one at a time (its SignInName row is locked meanwhile), so a burst of attempts in parallel at the
end of a wait gets one password checked, not one per request.
"""

import ipaddress
import math
from datetime import datetime, timedelta
from functools import cache

from django.conf import settings
from django.db import transaction
from django.db.models import Count, Max
from django.dispatch import Signal

from .models import SignInAttempt, SignInName

FREE = 5  # wrong passwords for a username in an hour that wait for nothing
FIRST_WAIT = 15  # seconds, after the FREE-th; doubled after each further one, up to longest_wait
HOUR = timedelta(hours=1)
KNOWN_ADDRESSES = 5
KNOWN_FOR = timedelta(days=30)
PRUNE_BATCH = 500  # rows deleted at most per attempt, so that pruning never holds one up for long

# Set by accounts.sign_in.SignInTurns on the request whose turn it took: the SignInAttempt's id.
TURN_ATTRIBUTE = "pitboss_sign_in_turn"


# Sent by accounts.sign_in.SignInRefusals when it answers a SignInRefused: `request`, `refused` (the
# exception). The sign-in record writes it as a lockout (accounts/sign_in_record.py).
sign_in_refused = Signal()


class SignInRefused(Exception):
    """An attempt refused before its password was checked, and not counted. `reason`: "address" (the
    address is locked) or "delay" (the username's wait is not over); `retry_after`: whole seconds."""

    def __init__(self, reason: str, username: str, address: str | None, retry_after: int):
        super().__init__(reason, username, address, retry_after)
        self.reason, self.username, self.address, self.retry_after = reason, username, address, retry_after


def wait_after(failures: int, longest: int) -> int:
    """Seconds the next attempt waits after the last failure, with `failures` for the username in
    the last hour (that one included)."""
    if failures < FREE:
        return 0
    return min(longest, FIRST_WAIT << min(failures - FREE, 16))


def waits_add_up_to(per_hour: int, longest: int) -> int:
    """The waits after the 1st, 2nd, ... per_hour-th failure, added up (seconds)."""
    delayed = max(per_hour - FREE + 1, 0)  # the failures after which the next attempt waits
    ramp = []  # the waits under the cap
    while len(ramp) < delayed and FIRST_WAIT << len(ramp) < longest:
        ramp.append(FIRST_WAIT << len(ramp))
    return sum(ramp) + (delayed - len(ramp)) * longest


@cache
def longest_wait(per_hour: int) -> int:
    """The cap of the wait (seconds): the shortest with which the waits after the 1st ... per_hour-th
    failure add up to an hour. Then no hour holds per_hour + 1 failures: before the k-th failure in
    an hour at least k - 1 lie in the hour before it, so it waited at least wait_after(k - 1) after
    the one before, and the (per_hour + 1)-th would come an hour after the first, or later."""
    hour = int(HOUR.total_seconds())
    return next((cap for cap in range(1, hour) if waits_add_up_to(per_hour, cap) >= hour), hour)


def turn_take(username: str, address: str | None, now: datetime, *, known_exempt: bool = True) -> int:
    """Before the password is checked: SignInRefused if the address is locked, or if the username's
    wait is not over and the address is not one of its known ones (with `known_exempt`; a second
    factor's code waits wherever it comes from). Otherwise the attempt counts as a wrong password from
    now (its id is returned, for sign_in_succeeded)."""
    address = _address(address)
    with transaction.atomic():
        _, created = SignInName.objects.select_for_update().get_or_create(
            username=username, defaults={"turn_at": now}
        )
        locked_for = _address_locked_for(address, now)
        if locked_for:
            raise SignInRefused("address", username, address, locked_for)
        if not (known_exempt and _known(username, address, now)):
            wait = _wait_left(username, now)
            if wait:
                raise SignInRefused("delay", username, address, wait)
        if not created:
            SignInName.objects.filter(username=username).update(turn_at=now)
        attempt = SignInAttempt.objects.create(username=username, address=address, at=now)
    _prune(now)
    return attempt.pk


def sign_in_succeeded(sender, request, user, **kwargs) -> None:
    """user_logged_in: the attempt that took its turn on this request had the right password (or, with
    a second factor, the right code: then the password was right too). Its address becomes one of the
    username's known ones; older successes from it, those beyond the last KNOWN_ADDRESSES addresses
    and those older than KNOWN_FOR are forgotten. A sign-in that took no turn (force_login, a
    test's) changes nothing."""
    turn = getattr(request, TURN_ATTRIBUTE, None)
    if turn is None:
        return
    attempt = SignInAttempt.objects.filter(pk=turn, succeeded=False).first()
    if attempt is None:
        return
    attempt.succeeded = True
    attempt.save(update_fields=["succeeded"])
    _successes_kept(attempt)
    username = user.get_username()
    if attempt.username == codes_of(username):
        success = SignInAttempt.objects.create(
            username=username, address=attempt.address, at=attempt.at, succeeded=True
        )
        _successes_kept(success)


def _successes_kept(attempt: SignInAttempt) -> None:
    successes = SignInAttempt.objects.filter(username=attempt.username, succeeded=True)
    successes.filter(address=attempt.address).exclude(pk=attempt.pk).delete()
    kept = list(successes.order_by("-at", "-pk").values_list("pk", flat=True)[:KNOWN_ADDRESSES])
    successes.exclude(pk__in=kept).delete()
    SignInAttempt.objects.filter(succeeded=True, at__lte=attempt.at - KNOWN_FOR).delete()


def turn_forgive(request) -> None:
    """The attempt that took its turn on `request` was no wrong guess, nor yet a sign-in (a right
    password, before the second factor): it is forgotten."""
    turn = getattr(request, TURN_ATTRIBUTE, None)
    if turn is not None:
        SignInAttempt.objects.filter(pk=turn, succeeded=False).delete()


def codes_of(username: str) -> str:
    """The name a username's second-factor codes take their turns under: apart from its passwords,
    so that wrong passwords typed elsewhere (by someone without the password) never hold up the real
    user's code, and wrong codes (by someone with it) wait on their own. No username has a "#"."""
    return f"{username}#codes"


def forget(*, username: str | None = None, address: str | None = None) -> int:
    """Lift early the delay of `username` (its passwords' and its codes'), or the lock of `address`:
    their wrong guesses are forgotten (for manage.py sign_in_reset). The number forgotten."""
    failures = SignInAttempt.objects.filter(succeeded=False)
    if username is not None:
        failures = failures.filter(username__in=[username, codes_of(username)])
    if address is not None:
        failures = failures.filter(address=_address(address))
    count, _ = failures.delete()
    return count


def _address(address: str | None) -> str | None:
    """The address as stored: None for anything that is not an IP address."""
    try:
        return str(ipaddress.ip_address(address)) if address else None
    except ValueError:
        return None


def _address_locked_for(address: str | None, now: datetime) -> int:
    """Seconds until fewer than the limit of wrong passwords from `address` lie within the lockout
    time: 0 when there are fewer already."""
    if address is None:
        return 0
    limit = settings.PITBOSS_SIGN_IN_ADDRESS_FAILURE_LIMIT
    window = timedelta(minutes=settings.PITBOSS_SIGN_IN_LOCKOUT_MINUTES)
    failures = SignInAttempt.objects.filter(address=address, succeeded=False, at__gt=now - window)
    newest = list(failures.order_by("-at").values_list("at", flat=True)[:limit])
    return _seconds_until(newest[-1] + window, now) if len(newest) >= limit else 0


def _known(username: str, address: str | None, now: datetime) -> bool:
    if address is None:
        return False
    successes = SignInAttempt.objects.filter(username=username, succeeded=True, at__gt=now - KNOWN_FOR)
    last = successes.order_by("-at", "-pk").values("pk")[:KNOWN_ADDRESSES]
    return SignInAttempt.objects.filter(pk__in=last, address=address).exists()


def _wait_left(username: str, now: datetime) -> int:
    failures = SignInAttempt.objects.filter(username=username, succeeded=False, at__gt=now - HOUR)
    counted = failures.aggregate(count=Count("pk"), last=Max("at"))
    if not counted["count"]:
        return 0
    longest = longest_wait(settings.PITBOSS_SIGN_IN_ACCOUNT_GUESSES_PER_HOUR)
    return _seconds_until(counted["last"] + timedelta(seconds=wait_after(counted["count"], longest)), now)


def _seconds_until(moment: datetime, now: datetime) -> int:
    return max(math.ceil((moment - now).total_seconds()), 0)


def _prune(now: datetime) -> None:
    """Forget wrong passwords, and usernames, that no longer count. Rows another attempt holds are
    skipped (SKIP LOCKED), so pruning never waits for one, nor deadlocks with it."""
    counted_for = max(HOUR, timedelta(minutes=settings.PITBOSS_SIGN_IN_LOCKOUT_MINUTES))
    with transaction.atomic():
        stale = SignInAttempt.objects.select_for_update(skip_locked=True).filter(
            succeeded=False, at__lte=now - counted_for
        )
        SignInAttempt.objects.filter(pk__in=list(stale.values_list("pk", flat=True)[:PRUNE_BATCH])).delete()
        idle = SignInName.objects.select_for_update(skip_locked=True).filter(turn_at__lte=now - counted_for)
        SignInName.objects.filter(pk__in=list(idle.values_list("pk", flat=True)[:PRUNE_BATCH])).delete()
