"""The test provider (serve.py) started in a process of its own on a free loopback port, with an RSA
key made for the run, and the tests' way of setting its users."""

import os
import secrets
import subprocess
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import requests
from cryptography.hazmat.primitives.asymmetric import rsa
from cryptography.hazmat.primitives.serialization import Encoding, NoEncryption, PrivateFormat

from tests.benchmarks.support import free_port

HERE = Path(__file__).resolve().parent
START_SECONDS = 30


@dataclass
class Provider:
    url: str  # the issuer: http://127.0.0.1:<port>/o
    client_id: str
    client_secret: str
    setup_token: str

    @property
    def discovery_url(self) -> str:
        return f"{self.url}/.well-known/openid-configuration"

    def user_set(self, username: str, groups: list[str], password: str | None = None) -> str:
        """The provider's user `username`, in exactly `groups` (made, or changed); their password."""
        password = password or f"pw-{username}"
        answer = requests.post(
            self.url.removesuffix("/o") + "/setup/user/",
            json={"username": username, "password": password, "groups": groups},
            headers={"X-Setup-Token": self.setup_token},
            timeout=10,
        )
        answer.raise_for_status()
        return password


def private_key_pem() -> str:
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    return key.private_bytes(Encoding.PEM, PrivateFormat.PKCS8, NoEncryption()).decode()


@contextmanager
def oidc_provider(folder: Path, redirect_uri: str):
    """The provider, running until the block ends, its one client redirecting to `redirect_uri`."""
    (folder / "key.pem").write_text(private_key_pem())
    port = free_port()
    provider = Provider(
        url=f"http://127.0.0.1:{port}/o",
        client_id=secrets.token_hex(8),
        client_secret=secrets.token_urlsafe(24),
        setup_token=secrets.token_urlsafe(16),
    )
    environment = {
        **os.environ,
        "OIDC_PROVIDER_CLIENT_ID": provider.client_id,
        "OIDC_PROVIDER_CLIENT_SECRET": provider.client_secret,
        "OIDC_PROVIDER_REDIRECT_URI": redirect_uri,
        "OIDC_PROVIDER_SETUP_TOKEN": provider.setup_token,
    }
    log_path = folder / "provider.log"
    with open(log_path, "wb") as log:
        started = subprocess.Popen(
            [sys.executable, str(HERE / "serve.py"), str(port), str(folder)],
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            env=environment,
        )
        try:
            _answering(provider, started, log_path)
            yield provider
        finally:
            started.terminate()
            started.wait(timeout=10)


def _answering(provider: Provider, started: subprocess.Popen, log_path: Path) -> None:
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        if started.poll() is not None:
            raise RuntimeError(f"The OIDC provider stopped at start-up:\n{log_path.read_text()}")
        try:
            if requests.get(provider.discovery_url, timeout=2).ok:
                return
        except requests.ConnectionError:
            pass
        time.sleep(0.1)
    raise RuntimeError(f"The OIDC provider did not answer in {START_SECONDS} s:\n{log_path.read_text()}")
