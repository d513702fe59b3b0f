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
