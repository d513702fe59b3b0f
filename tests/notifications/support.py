"""The peers the notification tests send to, each a real process on a free loopback port started once
a module: an SMTP server (aiosmtpd, storing each message in a Maildir) and a webhook receiver
(receiver.py, verifying each signature)."""

import email.policy
import json
import mailbox
import subprocess
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass
from email import message_from_binary_file
from pathlib import Path

from tests.benchmarks.support import free_port, wait_for_port

HERE = Path(__file__).resolve().parent
DEADLINE = 20
# The receiver's slow answer, beyond the sender's timeout that the tests set.
SLOW_SECONDS = 4
WEBHOOK_TIMEOUT_SECONDS = 1


def wait_for(found, timeout: float = DEADLINE, every: float = 0.05):
    """`found()` once it is truthy; fails after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = found()
        if value or time.monotonic() > deadline:
            assert value, f"not found within {timeout} s"
            return value
        time.sleep(every)


@contextmanager
def process(command: list[str], port: int):
    started = subprocess.Popen(command, stdin=subprocess.DEVNULL)
    try:
        wait_for_port(port)
        yield started
    finally:
        started.terminate()
        started.wait(timeout=10)


@dataclass
class Smtp:
    port: int
    maildir: Path

    def messages(self) -> list:
        """Every message received so far, parsed (email.message.EmailMessage), oldest first."""
        box = mailbox.Maildir(self.maildir, factory=None, create=False)
        found = []
        for key in box.keys():
            with box.get_file(key) as source:
                found.append(message_from_binary_file(source, policy=email.policy.default))
        return found

    def to(self, address: str) -> list:
        return [message for message in self.messages() if address in message["To"]]

    def clear(self) -> None:
        mailbox.Maildir(self.maildir, create=False).clear()


@contextmanager
def smtp_server(folder: Path):
    """aiosmtpd on a free loopback port, each message in the Maildir `folder`/mail."""
    port = free_port()
    maildir = folder / "mail"
    mailbox.Maildir(maildir, create=True)
    command = [sys.executable, "-m", "aiosmtpd", "-n", "-l", f"127.0.0.1:{port}"]
    with process([*command, "-c", "aiosmtpd.handlers.Mailbox", str(maildir)], port):
        yield Smtp(port, maildir)


def mail_settings(settings, smtp: Smtp) -> None:
    settings.MAILERS = {
        "default": {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {"host": "127.0.0.1", "port": smtp.port, "timeout": 10},
        }
    }
    settings.DEFAULT_FROM_EMAIL = "pitboss@tests.example"
    settings.PITBOSS_BASE_URL = "https://pitboss.tests.example"
    settings.PITBOSS_NOTIFICATIONS = True


@dataclass
class Receiver:
    port: int
    folder: Path

    def url(self, mode: str, name: str) -> str:
        return f"http://127.0.0.1:{self.port}/{mode}/{name}"

    def trust(self, name: str, secret: str) -> None:
        """The receiver named `name` verifies with `secret` from now on."""
        (self.folder / f"{name}.secret").write_text(secret)

    def down(self, name: str, down: bool = True) -> None:
        """The receiver named `name` answers 503 (down), or as its mode says again."""
        flag = self.folder / f"{name}.down"
        if down:
            flag.touch()
        else:
            flag.unlink(missing_ok=True)

    def bodies(self, name: str) -> list[dict]:
        path = self.folder / f"{name}.jsonl"
        return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []

    def refused(self, name: str) -> int:
        path = self.folder / f"{name}.refused"
        return len(path.read_bytes().splitlines()) if path.exists() else 0


@contextmanager
def webhook_receiver(folder: Path):
    port = free_port()
    folder.mkdir(parents=True, exist_ok=True)
    command = [sys.executable, str(HERE / "receiver.py"), str(port), str(folder), str(SLOW_SECONDS)]
    with process(command, port):
        yield Receiver(port, folder)
