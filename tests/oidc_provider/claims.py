"""The claims the test provider gives: `preferred_username`, `email` and `groups` (the user's Django
groups) in the ID token and the userinfo, and `amr` (RFC 8176) in the ID token only: ["pwd", "mfa"]
for a user in the group MFA_GROUP, else ["pwd"]."""

from oauth2_provider.oauth2_validators import OAuth2Validator

MFA_GROUP = "mfa-done"


class ClaimsValidator(OAuth2Validator):
    oidc_claim_scope = {**OAuth2Validator.oidc_claim_scope, "groups": "profile", "amr": "openid"}

    def get_additional_claims(self, request):
        user = request.user
        groups = sorted(user.groups.values_list("name", flat=True))
        return {
            "preferred_username": user.get_username(),
            "email": user.email,
            "groups": groups,
            "amr": ["pwd", "mfa"] if MFA_GROUP in groups else ["pwd"],
        }

    def get_userinfo_claims(self, request):
        claims = super().get_userinfo_claims(request)
        claims.pop("amr", None)
        return claims
