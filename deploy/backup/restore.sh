#!/usr/bin/env bash
# Restores a base backup (base_backup.sh) into an empty data directory and sets it to replay the
# WAL archive (archive_wal.sh) on its first start: to the end of the archive, or to a point in time.
# Run as the user the server runs as (postgres), with the server that restored cluster will be
# started by stopped or on another port and data directory.
#
# Usage: restore.sh BACKUP_DIR ARCHIVE_DIR DATA_DIR [RECOVERY_TARGET_TIME]
#   e.g. restore.sh /var/backups/pitboss/2026-12-07T020000Z /var/lib/pitboss/wal-archive \
#          /var/lib/postgresql/15/restored '2026-12-07 14:30:00+00'
#
# It unpacks base.tar.gz and pg_wal.tar.gz into DATA_DIR (made with mode 0700 if absent; it must
# be empty), writes restore_command (a copy from ARCHIVE_DIR) and, when given,
# recovery_target_time with recovery_target_action = 'promote' to postgresql.auto.conf, and creates
# recovery.signal. Then start it and check:
#
#   pg_ctl -D DATA_DIR -l restore.log start     # replays the archive, then opens for writes
#   psql -Atc 'SELECT pg_is_in_recovery()'      # f once replay is done (t while it runs)
#   grep -E 'recovery stopping|archive recovery complete|redo done' restore.log
#
# Recovery ends where the archive ends (or at the target: the first transaction committed after it
# is left out) and the cluster goes on in a new timeline. The restored cluster archives nothing
# (archive_mode = off is written too): its new timeline's files in the archive it was restored from
# would be followed by any later restore from that archive (recovery_target_timeline 'latest').
# To archive again, give it a new archive directory and take a new base backup.
set -euo pipefail

if [[ $# -lt 3 || $# -gt 4 ]]; then
  echo "usage: $0 BACKUP_DIR ARCHIVE_DIR DATA_DIR [RECOVERY_TARGET_TIME]" >&2
  exit 2
fi
backup=$1
archive=$2
data=$3
target_time=${4:-}

for value in "$archive" "$target_time"; do
  if [[ $value == *"'"* ]]; then
    echo "restore.sh: a quote (') cannot be written into postgresql.auto.conf: $value" >&2
    exit 2
  fi
done
if [[ ! -f $backup/base.tar.gz ]]; then
  echo "restore.sh: $backup has no base.tar.gz (not a base_backup.sh backup?)" >&2
  exit 1
fi
if [[ ! -d $archive ]]; then
  echo "restore.sh: no WAL archive at $archive" >&2
  exit 1
fi
mkdir -p -m 0700 -- "$data"
if [[ -n $(ls -A -- "$data") ]]; then
  echo "restore.sh: $data is not empty; restore into an empty directory" >&2
  exit 1
fi
archive=$(cd -- "$archive" && pwd)

tar -xzf "$backup/base.tar.gz" -C "$data"
mkdir -p -m 0700 -- "$data/pg_wal"
if [[ -f $backup/pg_wal.tar.gz ]]; then
  tar -xzf "$backup/pg_wal.tar.gz" -C "$data/pg_wal"
fi
{
  echo "# restore.sh: recovery from $backup"
  echo "restore_command = 'cp \"$archive/%f\" \"%p\"'"
  echo "archive_mode = 'off'"
  if [[ -n $target_time ]]; then
    echo "recovery_target_time = '$target_time'"
    echo "recovery_target_action = 'promote'"
  fi
} >>"$data/postgresql.auto.conf"
touch -- "$data/recovery.signal"
echo "restored into $data; start it with: pg_ctl -D $data -l restore.log start"
