"""What revokes all of a user's API tokens: a new password (here), a role change and deactivation
(accounts/session_end.py, which also ends their sessions).

A new password is seen by Django's documented hook for it: every validator in
AUTH_PASSWORD_VALIDATORS has its `password_changed()` called when a user is saved after
`set_password()` (the password change page, the admin's, `changepassword`, a reset). The re-hash
of the same password that Django does at sign-in after a hasher change does not call it, so it
revokes nothing.
"""

from .services import tokens_revoke


class RevokeTokensOnPasswordChange:
    """A password "validator" that refuses nothing; on a password change it revokes the tokens."""

    def validate(self, password, user=None):
        return None

    def password_changed(self, password, user=None):
        if user is not None and user.pk is not None:
            tokens_revoke(user.api_tokens.all())

    def get_help_text(self):
        return "Changing your password revokes your API tokens."
