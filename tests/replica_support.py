"""A private PostgreSQL primary and streaming standby for the replica tests (issue 55).

Never a standby of the shared server on 5432: `initdb --no-sync` into a temporary directory owned by
postgres, `pg_ctl` on free loopback ports, `pg_basebackup -X stream -R -w` for the standby. Trust
authentication on 127.0.0.1 only, fsync off: a pair for a test run, ready in about two seconds.
As root (CI, this machine's tests), the server programs run as postgres (initdb refuses root).
"""

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import requests

SERVER_PROGRAMS = "/usr/lib/postgresql/*/bin"


def server_bin() -> Path | None:
    """The newest PostgreSQL's server programs (initdb, pg_ctl, pg_basebackup), or None."""
    found = sorted(glob.glob(f"{SERVER_PROGRAMS}/initdb"), key=lambda path: int(Path(path).parts[-3]))
    return Path(found[-1]).parent if found else None


def server_problem() -> str | None:
    if server_bin() is None:
        return f"no PostgreSQL server programs ({SERVER_PROGRAMS}/initdb; apt-get install postgresql)"
    if os.geteuid() == 0:
        try:
            import pwd

            pwd.getpwnam("postgres")
        except KeyError:
            return "running as root and there is no postgres user to run the servers"
    return None


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def run_as_postgres(*args, **kwargs) -> subprocess.CompletedProcess:
    command = [str(arg) for arg in args]
    if os.geteuid() == 0:
        command = ["runuser", "-u", "postgres", "--", *command]
    return subprocess.run(command, check=True, capture_output=True, text=True, timeout=120, **kwargs)


def wait_for(url: str, timeout: float = 60) -> None:
    """Until the server answers `url`: its first answer loads the whole app, which a busy machine (CI,
    the other test process) takes seconds over; a slow answer is waited for like a refused one."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            requests.get(url, timeout=10)
            return
        except (requests.ConnectionError, requests.Timeout):
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


@dataclass
class Pair:
    root: Path
    bin: Path
    primary_port: int
    standby_port: int

    @property
    def primary(self) -> Path:
        return self.root / "primary"

    @property
    def standby(self) -> Path:
        return self.root / "standby"

    def url(self, port: int, database: str) -> str:
        return f"postgres://postgres@127.0.0.1:{port}/{database}"

    def sql(self, port: int, statement: str, database: str = "postgres") -> str:
        """One statement's answer, unaligned (psql -tA), committed."""
        done = subprocess.run(
            ["psql", "-h", "127.0.0.1", "-p", str(port), "-U", "postgres", "-d", database, "-tAc", statement],
            check=True,
            capture_output=True,
            text=True,
            timeout=60,
        )
        return done.stdout.strip()

    def replayed(self, timeout: float = 30) -> None:
        """Wait until the standby has replayed everything the primary wrote so far."""
        target = self.sql(self.primary_port, "SELECT pg_current_wal_lsn()")
        deadline = time.monotonic() + timeout
        query = f"SELECT pg_wal_lsn_diff(pg_last_wal_replay_lsn(), '{target}') >= 0"
        while self.sql(self.standby_port, query) != "t":
            if time.monotonic() > deadline:
                raise TimeoutError("the standby did not catch up")
            time.sleep(0.05)

    def start_standby(self) -> None:
        run_as_postgres(
            self.bin / "pg_ctl", "-D", self.standby, "-l", self.root / "standby.log", "-w", "start"
        )

    def stop_standby(self) -> None:
        run_as_postgres(self.bin / "pg_ctl", "-D", self.standby, "-m", "fast", "-w", "stop")

    def stop(self) -> None:
        for folder in (self.standby, self.primary):
            if (folder / "postmaster.pid").exists():
                subprocess.run(
                    ["runuser", "-u", "postgres", "--"] * (os.geteuid() == 0)
                    + [str(self.bin / "pg_ctl"), "-D", str(folder), "-m", "immediate", "stop"],
                    capture_output=True,
                    timeout=60,
                )
        shutil.rmtree(self.root, ignore_errors=True)


def make_pair() -> Pair:
    """Start a primary and its streaming standby; `Pair.stop()` stops both and removes their files."""
    root = Path(tempfile.mkdtemp(prefix="pitboss-pair-"))
    if os.geteuid() == 0:
        shutil.chown(root, "postgres", "postgres")
    pair = Pair(root=root, bin=server_bin(), primary_port=free_port(), standby_port=free_port())
    try:
        run_as_postgres(pair.bin / "initdb", "--no-sync", "-A", "trust", "-U", "postgres", "-D", pair.primary)
        with open(pair.primary / "postgresql.conf", "a") as conf:
            conf.write(
                f"port = {pair.primary_port}\nlisten_addresses = '127.0.0.1'\n"
                f"unix_socket_directories = '{root}'\nwal_level = replica\nmax_wal_senders = 4\n"
                "fsync = off\nsynchronous_commit = off\nfull_page_writes = off\n"
            )
        with open(pair.primary / "pg_hba.conf", "a") as hba:
            hba.write("host replication postgres 127.0.0.1/32 trust\n")
        run_as_postgres(pair.bin / "pg_ctl", "-D", pair.primary, "-l", root / "primary.log", "-w", "start")
        run_as_postgres(
            pair.bin / "pg_basebackup",
            *("-h", "127.0.0.1", "-p", pair.primary_port, "-U", "postgres", "-D", pair.standby),
            *("-X", "stream", "-R", "-w"),
        )
        with open(pair.standby / "postgresql.conf", "a") as conf:
            conf.write(f"port = {pair.standby_port}\nhot_standby = on\n")
        pair.start_standby()
    except BaseException:
        pair.stop()
        raise
    return pair
