"""A webhook receiver for the tests: `python receiver.py <port> <folder> [<slow seconds>]`.

POST /<mode>/<name>: the body is verified with the secret in <folder>/<name>.secret (read at each
request: a test rotates it) by notifications/signing.py, as a subscriber's receiver would. Verified,
the body is appended as one line to <folder>/<name>.jsonl and, by mode, answered:
- ok: 204;
- slow: after <slow seconds> (beyond the sender's timeout), 204;
- failing: 500;
and, whatever the mode, 503 while <folder>/<name>.down exists (a receiver down, then back).
A bad or missing signature is answered 401 and the body kept in <folder>/<name>.refused. One thread
per request: a slow answer keeps no other waiting.
"""

import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from notifications.signing import HEADER, verify  # noqa: E402

MODES = ("ok", "slow", "failing")


class Receiver(BaseHTTPRequestHandler):
    folder: Path
    slow_seconds: float

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        mode, _, name = self.path.strip("/").partition("/")
        secret_file = self.folder / f"{name}.secret"
        if mode not in MODES or not name.isidentifier() or not secret_file.exists():
            return self.answer(404)
        if not verify(self.headers.get(HEADER, ""), body, secret_file.read_text().strip()):
            with open(self.folder / f"{name}.refused", "ab") as refused:
                refused.write(body + b"\n")
            return self.answer(401)
        with open(self.folder / f"{name}.jsonl", "ab") as verified:
            verified.write(body + b"\n")
        if mode == "slow":
            time.sleep(self.slow_seconds)
        down = (self.folder / f"{name}.down").exists()
        self.answer(503 if down else 500 if mode == "failing" else 204)

    def answer(self, status: int) -> None:
        self.send_response(status)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, format, *args):
        pass


def main(port: str, folder: str, slow_seconds: str = "3") -> None:
    Receiver.folder, Receiver.slow_seconds = Path(folder), float(slow_seconds)
    ThreadingHTTPServer(("127.0.0.1", int(port)), Receiver).serve_forever()


if __name__ == "__main__":
    main(*sys.argv[1:])
