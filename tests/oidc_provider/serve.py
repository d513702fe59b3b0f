"""The OpenID Connect provider of the single sign-on tests, a process of its own:
`python serve.py <port> <folder>`, with in the environment OIDC_PROVIDER_CLIENT_ID,
OIDC_PROVIDER_CLIENT_SECRET, OIDC_PROVIDER_REDIRECT_URI (the one client, Pitboss: confidential,
authorization code, RS256, no consent asked) and OIDC_PROVIDER_SETUP_TOKEN (views.py). <folder> holds
its RSA key (key.pem) and gets its SQLite database. Serves on 127.0.0.1:<port>; the issuer is
http://127.0.0.1:<port>/o."""

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))


def main(port: str, folder: str) -> None:
    os.environ["OIDC_PROVIDER_FOLDER"] = folder
    os.environ["DJANGO_SETTINGS_MODULE"] = "tests.oidc_provider.settings"
    import django

    django.setup()
    from django.core.management import call_command
    from oauth2_provider.models import Application

    call_command("migrate", verbosity=0, interactive=False)
    Application.objects.create(
        name="Pitboss",
        client_id=os.environ["OIDC_PROVIDER_CLIENT_ID"],
        client_secret=os.environ["OIDC_PROVIDER_CLIENT_SECRET"],
        redirect_uris=os.environ["OIDC_PROVIDER_REDIRECT_URI"],
        client_type=Application.CLIENT_CONFIDENTIAL,
        authorization_grant_type=Application.GRANT_AUTHORIZATION_CODE,
        algorithm=Application.RS256_ALGORITHM,
        skip_authorization=True,
    )
    call_command("runserver", f"127.0.0.1:{port}", use_reloader=False, skip_checks=True)


if __name__ == "__main__":
    main(*sys.argv[1:])
