"""API tokens: a user (a game server, or a member of staff) may hold several, each stored as the
SHA-256 digest of its key. The key is shown once, when the token is made, and never stored.
A user's preferences: the time zone they see times in."""

import hashlib
import secrets

from django.conf import settings
from django.db import models
from django.utils import timezone

from .time_zones import validate_time_zone

PREFIX_LENGTH = 8


def key_new() -> str:
    """40 hexadecimal characters, as DRF's tokens had: game servers keep their key's format."""
    return secrets.token_hex(20)


def key_digest(key: str) -> str:
    # A key is 160 random bits, not a password: a fast, unsalted hash is enough, and lets a
    # request find its token by one indexed lookup.
    return hashlib.sha256(key.encode()).hexdigest()


class ApiToken(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(max_length=100, blank=True, help_text="What it is for, e.g. the server using it.")
    prefix = models.CharField(
        max_length=PREFIX_LENGTH, help_text="The key's first characters, to tell tokens apart in lists."
    )
    digest = models.CharField(max_length=64, unique=True, help_text="SHA-256 of the key, in hexadecimal.")
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="Refused from then on, or sooner at the end of the user's token lifetime "
        "(accounts/token_lifetime.py); a rotation sets it.",
    )
    last_used_at = models.DateTimeField(
        null=True, blank=True, help_text="The last request it authenticated, to the minute."
    )
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["user", "created_at", "id"]
        verbose_name = "API token"

    def __str__(self) -> str:
        return f"{self.prefix}… ({self.user})"


class Preferences(models.Model):
    """What a user chose for themself on /accounts/preferences/; a user without a row has the
    defaults (accounts.time_zones.default_time_zone)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="preferences"
    )
    time_zone = models.CharField(
        max_length=64,
        validators=[validate_time_zone],
        help_text="The IANA time zone the portal shows times in, e.g. Europe/Malta.",
    )

    class Meta:
        verbose_name_plural = "preferences"

    def __str__(self) -> str:
        return f"{self.user}: {self.time_zone}"


class SignInAttempt(models.Model):
    """A sign-in whose password was checked (accounts.sign_in.SignInTurns, accounts.guesses), counted as
    a wrong password from the moment it took its turn, before the check, and marked succeeded if the
    password was right. Wrong ones count against their username for an hour (the per-account delay)
    and against their address (its lock), then are deleted; the addresses of a username's last
    successful ones are exempt from its delay. Any username typed is counted, an account's or not."""

    username = models.CharField(max_length=255)
    address = models.GenericIPAddressField(
        null=True, help_text="As accounts.sign_in.client_address reads it."
    )
    at = models.DateTimeField()
    succeeded = models.BooleanField(default=False)

    class Meta:
        indexes = [
            models.Index(fields=["username", "succeeded", "at"], name="sign_in_by_username"),
            models.Index(fields=["address", "succeeded", "at"], name="sign_in_by_address"),
            models.Index(fields=["succeeded", "at"], name="sign_in_by_age"),
        ]

    def __str__(self) -> str:
        outcome = "success" if self.succeeded else "failure"
        return f"{outcome}: {self.username!r} from {self.address} at {self.at:%Y-%m-%d %H:%M:%S}"


class SignInName(models.Model):
    """A username typed at sign-in while attempts for it count (an hour after the last). An attempt
    locks its row (SELECT ... FOR UPDATE) while it takes its turn, so attempts in parallel, in any
    process or server, are counted one after the other (accounts.guesses.turn_take)."""

    username = models.CharField(max_length=255, primary_key=True)
    turn_at = models.DateTimeField(db_index=True, help_text="When an attempt last took its turn.")

    def __str__(self) -> str:
        return self.username


class SignInEvent(models.Model):
    """One sign-in, or one refused, as it happened (accounts/sign_in_record.py): kept for good, for the
    administrators' and compliance's record (unlike SignInAttempt, which only counts guesses)."""

    class Kind(models.TextChoices):
        SUCCESS = "success", "Success"
        FAILURE = "failure", "Failure"
        LOCKOUT = "lockout", "Lockout"
        SECOND_FACTOR_FAILURE = "second_factor_failure", "Second-factor failure"

    class Method(models.TextChoices):
        PASSWORD = "password", "Password"
        SINGLE_SIGN_ON = "single_sign_on", "Single sign-on"

    class SecondFactor(models.TextChoices):
        NONE = "", "None"
        TOTP = "totp", "Authenticator code"
        RECOVERY_CODE = "recovery_codes", "Recovery code"
        PROVIDER = "provider", "The provider's"

    at = models.DateTimeField(db_index=True)
    day = models.DateField(help_text="The gaming day of `at` (core.gaming_day).")
    kind = models.CharField(max_length=24, choices=Kind.choices)
    username = models.CharField(
        max_length=255, blank=True, help_text="As typed, or as the provider named it."
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    address = models.GenericIPAddressField(
        null=True, blank=True, help_text="As accounts.sign_in.client_address reads it."
    )
    method = models.CharField(max_length=16, choices=Method.choices, blank=True)
    second_factor = models.CharField(max_length=16, choices=SecondFactor.choices, blank=True)
    detail = models.CharField(max_length=200, blank=True, help_text="Why it failed or was refused.")
    break_glass = models.BooleanField(
        default=False,
        help_text="An administrator signed in with a local password while single sign-on is configured.",
    )
    provider_answered = models.BooleanField(
        null=True,
        blank=True,
        help_text="Break-glass only: whether the provider's discovery document answered at that moment.",
    )
    reviewed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    reviewed_at = models.DateTimeField(null=True, blank=True)
    review_note = models.TextField(blank=True)

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name = "sign-in event"
        permissions = [("review_signinevent", "Review a break-glass sign-in")]
        indexes = [
            models.Index(fields=["day", "kind"], name="sign_in_event_by_day"),
            models.Index(fields=["username", "at"], name="sign_in_event_by_username"),
            models.Index(
                fields=["at"],
                name="sign_in_break_glass_open",
                condition=models.Q(break_glass=True, reviewed_at__isnull=True),
            ),
        ]

    def __str__(self) -> str:
        return (
            f"{self.get_kind_display()}: {self.username!r} from {self.address} at {self.at:%Y-%m-%d %H:%M:%S}"
        )


# A token used from no readable address is counted under this one (the unspecified address).
UNKNOWN_ADDRESS = "0.0.0.0"


class TokenUse(models.Model):
    """An API token's use in one gaming day from one address, written when its authentication writes
    the token's last_used_at (at most once a minute a token, accounts/authentication.py): `minutes`
    counts those writes, each in a minute of its own. A request in a minute already written is not
    counted, so a token used from two addresses in one minute counts for the first only."""

    token = models.ForeignKey(ApiToken, on_delete=models.CASCADE, related_name="uses")
    day = models.DateField(help_text="The gaming day (core.gaming_day).")
    address = models.GenericIPAddressField(help_text=f"{UNKNOWN_ADDRESS}: not known.")
    first_at = models.DateTimeField()
    last_at = models.DateTimeField()
    minutes = models.PositiveIntegerField(default=1)

    class Meta:
        ordering = ["-day", "-last_at", "id"]
        verbose_name = "API token use"
        constraints = [
            models.UniqueConstraint(
                fields=["token", "day", "address"], name="token_use_once_a_day_an_address"
            )
        ]
        indexes = [models.Index(fields=["day"], name="token_use_by_day")]

    def __str__(self) -> str:
        return f"{self.token.prefix}… on {self.day} from {self.address}: {self.minutes} minute(s)"
