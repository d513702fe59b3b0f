"""Backups (issue 56): deploy/backup's scripts on a scratch cluster. A primary made by initdb archives
its WAL with archive_wal.sh; base_backup.sh copies it; rows written after the backup reach the
archive (pg_switch_wal); the primary is stopped; restore.sh makes a second cluster, started on
another port, that replays the archive: to its end (every row), or to a time before the later rows
(without them). The cluster holds Pitboss's schema too (migrated before the backup), and a user made
by manage.py after the backup comes back with the rows. Never the server on 5432; everything
is stopped and removed at the end, also on failure. Marker `replica`: it needs PostgreSQL's server
programs, as the replica tests do."""

import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.replica_support import free_port, run_as_postgres, server_bin

pytestmark = pytest.mark.replica

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = ROOT / "deploy" / "backup"
PITBOSS = "pitboss"  # the scratch cluster's Pitboss database
USER_AFTER = "made-after-the-backup"  # by manage.py: a Django write the archive's WAL brings back
BEFORE, AFTER, LATER = range(1, 4)  # the rows' batches: before the base backup, after it, after the target


@dataclass
class Cluster:
    data: Path
    port: int

    def start(self) -> None:
        run_as_postgres(server_bin() / "pg_ctl", "-D", self.data, "-l", f"{self.data}.log", "-w", "start")

    def stop(self) -> None:
        if (self.data / "postmaster.pid").exists():
            run_as_postgres(server_bin() / "pg_ctl", "-D", self.data, "-m", "fast", "-w", "stop")

    def sql(self, statement: str, database: str = "postgres") -> str:
        done = subprocess.run(
            [
                "psql",
                "-h",
                "127.0.0.1",
                "-p",
                str(self.port),
                "-U",
                "postgres",
                "-d",
                database,
                "-tAc",
                statement,
            ],
            check=True,
            capture_output=True,
            text=True,
            timeout=60,
        )
        return done.stdout.strip()

    def wait_until(self, statement: str, timeout: float = 120) -> None:
        """Until `statement` answers t (recovery replaying, a segment archived): a busy machine is slow."""
        deadline = time.monotonic() + timeout
        while self.sql(statement) != "t":
            if time.monotonic() > deadline:
                raise TimeoutError(f"{statement!r} never answered t; see {self.data}.log")
            time.sleep(0.1)

    def batches(self) -> list[int]:
        return [int(batch) for batch in self.sql("SELECT DISTINCT batch FROM hands ORDER BY batch").split()]

    def pitboss_users(self) -> list[str]:
        return self.sql("SELECT username FROM auth_user ORDER BY username", PITBOSS).split()

    def manage(self, *args: str) -> None:
        """A Pitboss management command on this cluster's Pitboss database."""
        environ = {
            key: value for key, value in os.environ.items() if not key.startswith(("CELERY_", "REPLICA_"))
        }
        environ.update(
            DJANGO_SETTINGS_MODULE="config.settings",
            DATABASE_URL=f"postgres://postgres@127.0.0.1:{self.port}/{PITBOSS}",
        )
        done = subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=ROOT,
            env=environ,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, done.stderr[-3000:]


@dataclass
class Backed:
    root: Path
    backup: Path
    archive: Path
    target_time: str


def installed_scripts(root: Path) -> Path:
    return root / "scripts"


@pytest.fixture(scope="module")
def scratch():
    """A temporary directory owned by postgres, and the clusters made in it (stopped at the end)."""
    root = Path(tempfile.mkdtemp(prefix="pitboss-backup-"))
    # What postgres runs (the archive_command, the backup and restore scripts) must be where it may
    # read it, as /opt/pitboss is when deployed; a checkout in a private directory (CI's) is not.
    shutil.copytree(SCRIPTS, installed_scripts(root))
    if os.geteuid() == 0:
        shutil.chown(root, "postgres", "postgres")
    clusters: list[Cluster] = []
    try:
        yield root, clusters
    finally:
        for cluster in clusters:
            try:
                cluster.stop()
            except subprocess.SubprocessError:
                run_as_postgres(server_bin() / "pg_ctl", "-D", cluster.data, "-m", "immediate", "stop")
        shutil.rmtree(root, ignore_errors=True)


def new_cluster(root: Path, clusters: list[Cluster], name: str) -> Cluster:
    cluster = Cluster(data=root / name, port=free_port())
    clusters.append(cluster)
    return cluster


def configure(cluster: Cluster, root: Path, **settings: str) -> None:
    lines = {
        "port": str(cluster.port),
        "listen_addresses": "'127.0.0.1'",
        "unix_socket_directories": f"'{root}'",
        "fsync": "off",
        "synchronous_commit": "off",
        **settings,
    }
    with open(cluster.data / "postgresql.conf", "a") as conf:
        conf.writelines(f"{key} = {value}\n" for key, value in lines.items())


def insert(cluster: Cluster, batch: int) -> None:
    cluster.sql(f"INSERT INTO hands (batch, dealt) SELECT {batch}, n FROM generate_series(1, 100) AS n")


@pytest.fixture(scope="module")
def backed(scratch) -> Backed:
    root, clusters = scratch
    archive, backups = root / "archive", root / "backups"
    for folder in (archive, backups):
        folder.mkdir()
        if os.geteuid() == 0:
            shutil.chown(folder, "postgres", "postgres")
    primary = new_cluster(root, clusters, "primary")
    run_as_postgres(server_bin() / "initdb", "--no-sync", "-A", "trust", "-U", "postgres", "-D", primary.data)
    configure(
        primary,
        root,
        wal_level="replica",
        archive_mode="on",
        archive_command=f"'{installed_scripts(root) / 'archive_wal.sh'} %p %f {archive}'",
    )
    primary.start()
    primary.sql("CREATE TABLE hands (batch int NOT NULL, dealt int NOT NULL)")
    primary.sql(f"CREATE DATABASE {PITBOSS}")
    primary.manage("migrate", "--no-input")
    insert(primary, BEFORE)
    made = run_as_postgres(
        installed_scripts(root) / "base_backup.sh",
        *(backups, "-h", "127.0.0.1", "-p", primary.port, "-U", "postgres", "--checkpoint=fast"),
        env={**os.environ, "PG_BIN": str(server_bin())},
    )
    backup = Path(made.stdout.strip().splitlines()[-1])
    insert(primary, AFTER)
    primary.manage("create_user", USER_AFTER, "--role", "customer_service", "--password", "not-used-1")
    target_time = primary.sql("SELECT clock_timestamp()")
    insert(primary, LATER)
    last = primary.sql("SELECT pg_walfile_name(pg_switch_wal())")
    primary.wait_until(f"SELECT coalesce(last_archived_wal >= '{last}', false) FROM pg_stat_archiver")
    primary.stop()
    return Backed(root=root, backup=backup, archive=archive, target_time=target_time)


def restore(backed: Backed, clusters: list[Cluster], name: str, *target_time: str) -> Cluster:
    cluster = new_cluster(backed.root, clusters, name)
    restore_script = installed_scripts(backed.root) / "restore.sh"
    run_as_postgres(restore_script, backed.backup, backed.archive, cluster.data, *target_time)
    configure(cluster, backed.root)
    cluster.start()
    cluster.wait_until("SELECT NOT pg_is_in_recovery()")  # replayed and promoted
    return cluster


def test_a_base_backup_is_a_dated_compressed_tar_with_its_manifest(backed):
    assert not backed.backup.name.endswith(".partial")
    assert {path.name for path in backed.backup.iterdir()} == {
        "base.tar.gz",
        "pg_wal.tar.gz",
        "backup_manifest",
    }


def test_a_restore_replays_the_archive_to_its_end(backed, scratch):
    restored = restore(backed, scratch[1], "restored")
    assert restored.batches() == [BEFORE, AFTER, LATER]
    assert restored.pitboss_users() == [USER_AFTER]
    restored.stop()


def test_a_point_in_time_restore_leaves_out_what_came_later(backed, scratch):
    restored = restore(backed, scratch[1], "restored-to-time", backed.target_time)
    assert restored.batches() == [BEFORE, AFTER]
    assert restored.pitboss_users() == [USER_AFTER]
    restored.stop()


def test_restore_wants_an_empty_data_directory(backed):
    occupied = backed.root / "occupied"
    occupied.mkdir()
    (occupied / "PG_VERSION").write_text("15\n")
    done = subprocess.run(
        [SCRIPTS / "restore.sh", backed.backup, backed.archive, occupied], capture_output=True, text=True
    )
    assert done.returncode == 1
    assert "is not empty" in done.stderr


def test_the_archive_keeps_a_segment_once_and_never_overwrites_another(tmp_path):
    archive = tmp_path / "archive"
    archive.mkdir()
    segment, other = tmp_path / "segment", tmp_path / "other"
    segment.write_bytes(b"wal" * 1000)
    other.write_bytes(b"not the same" * 100)
    name = "000000010000000000000003"

    def archive_wal(source: Path) -> subprocess.CompletedProcess:
        command = [SCRIPTS / "archive_wal.sh", source, name, archive]
        return subprocess.run(command, capture_output=True, text=True)

    assert archive_wal(segment).returncode == 0
    assert archive_wal(segment).returncode == 0  # a retry of a segment already archived
    refused = archive_wal(other)
    assert refused.returncode == 1
    assert "refusing to overwrite" in refused.stderr
    assert (archive / name).read_bytes() == segment.read_bytes()
    assert [path.name for path in archive.iterdir()] == [name]  # no temporary file left behind
