"""Staff reading the pages while the game servers post: wrk on the rounds list, a Boundless round's page
and the floor, each with the cookie of a supervisor signed in through the real pages (the password,
then a code of their second factor, demo.second_factor, as tests/second_factor_support.py gives one).

wrk's p99 is read from its --latency distribution; its non-2xx answers and socket errors are counted
(a page that sent the user to sign in again would be a 302: each page is checked for a 200 first).
Each connection waits THINK_MS between a page and the next (wrk's Lua `delay`), as a member of staff
reads before asking again: wrk flat out would take every core there is and leave the game servers'
share of the capacity to chance. The same pacing alone and in the soak, so that their p99 compare.
"""

import re
import subprocess
import time
from pathlib import Path

import requests

from demo.second_factor import PERIOD, demo_secret, totp_code

LOGIN = "/accounts/login/"
CODE_AT_SIGN_IN = "/accounts/2fa/authenticate/"
UNITS = {"us": 1e-6, "ms": 1e-3, "s": 1.0, "m": 60.0}
THINK_MS = 250
CONNECTIONS = 2  # a page's readers at once


def think_script(folder: Path) -> Path:
    script = folder / "think.lua"
    script.write_text(f"function delay()\n  return {THINK_MS}\nend\n")
    return script


def signed_in_cookie(base: str, username: str, password: str) -> str:
    """A Cookie header of `username`'s session, signed in through the pages."""
    browser = requests.Session()
    browser.get(base + LOGIN, timeout=30)
    answer = browser.post(
        base + LOGIN,
        data={"login": username, "password": password, "csrfmiddlewaretoken": browser.cookies["csrftoken"]},
        headers={"Referer": base + LOGIN},
        timeout=30,
        allow_redirects=False,
    )
    if answer.status_code == 302 and answer.headers["Location"].startswith(CODE_AT_SIGN_IN):
        # Each code is accepted once: this period's, else the next's or the last's (the tolerance).
        for steps in (0, 1, -1):
            code = totp_code(demo_secret(username), time.time() + steps * PERIOD)
            answer = browser.post(
                base + CODE_AT_SIGN_IN,
                data={"code": code, "csrfmiddlewaretoken": browser.cookies["csrftoken"]},
                headers={"Referer": base + CODE_AT_SIGN_IN},
                timeout=30,
                allow_redirects=False,
            )
            if answer.status_code == 302:
                break
    if answer.status_code != 302:
        raise RuntimeError(f"{username} was not signed in: {answer.status_code}")
    return "; ".join(f"{name}={value}" for name, value in browser.cookies.items())


def page_answers(base: str, path: str, cookie: str) -> None:
    answer = requests.get(base + path, headers={"Cookie": cookie}, timeout=60, allow_redirects=False)
    if answer.status_code != 200:
        raise RuntimeError(f"{path} answered {answer.status_code}, not 200, to the signed-in supervisor")


def wrk_start(base: str, path: str, cookie: str, seconds: float, script: Path) -> subprocess.Popen:
    """wrk on one page: 1 thread, CONNECTIONS connections that think between pages (`script`), a 10 s
    timeout (slower answers are still counted)."""
    command = ["wrk", "-t1", f"-c{CONNECTIONS}", f"-d{max(1, round(seconds))}s", "--timeout", "10s"]
    command += ["--latency", "-s", str(script), "-H", f"Cookie: {cookie}", base + path]
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def wrk_result(process: subprocess.Popen) -> dict:
    output, _ = process.communicate(timeout=3600)
    found = re.search(r"^\s*99%\s+([\d.]+)(us|ms|s|m)\s*$", output, re.M)
    requests_done = re.search(r"(\d+) requests in", output)
    if found is None or requests_done is None:
        raise RuntimeError(f"wrk's output was not understood:\n{output}")
    not_ok = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", output)
    return {
        "p99_ms": round(float(found[1]) * UNITS[found[2]] * 1000, 2),
        "requests": int(requests_done[1]),
        "not_ok": int(not_ok[1]) if not_ok else 0,
        "socket_errors": sum(map(int, errors.groups())) if errors else 0,
    }


def pages_alone(
    base: str, pages: dict[str, str], cookie: str, seconds: float, script: Path
) -> dict[str, dict]:
    """Each page under wrk by itself, nothing else running."""
    return {name: wrk_result(wrk_start(base, path, cookie, seconds, script)) for name, path in pages.items()}


def pages_started(base: str, pages: dict[str, str], cookie: str, seconds: float, script: Path) -> dict:
    """wrk on every page at once, for the soak; collect with pages_collected."""
    return {name: wrk_start(base, path, cookie, seconds, script) for name, path in pages.items()}


def pages_collected(started: dict) -> dict[str, dict]:
    return {name: wrk_result(process) for name, process in started.items()}
