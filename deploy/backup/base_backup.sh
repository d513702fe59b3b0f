#!/usr/bin/env bash
# A base backup of the whole PostgreSQL cluster, the starting point restore.sh replays the WAL
# archive from. Run it as a user the server lets replicate (a `host replication` line in
# pg_hba.conf; `postgres` locally), e.g. nightly from a systemd timer or cron:
#
#   base_backup.sh /var/backups/pitboss -h 127.0.0.1 -U postgres
#
# Usage: base_backup.sh BACKUP_ROOT [pg_basebackup options: -h HOST -p PORT -U USER --checkpoint=fast ...]
#
# Writes BACKUP_ROOT/<UTC date and time>/ with pg_basebackup's tar format, gzip-compressed:
# base.tar.gz (the data directory), pg_wal.tar.gz (the WAL written during the backup, so the backup
# is consistent by itself) and backup_manifest (every file's size and checksum). The backup is
# made under a `.partial` name and renamed when pg_basebackup has finished: a directory without
# that suffix is complete. PG_BIN may name the directory of PostgreSQL's programs (default: PATH).
#
# Old backups are not removed here: keep as many as the retention asks, and remove the archive's
# WAL older than the oldest kept backup with pg_archivecleanup (its .backup file names the first
# segment needed).
set -euo pipefail

if [[ $# -lt 1 ]]; then
  echo "usage: $0 BACKUP_ROOT [pg_basebackup options]" >&2
  exit 2
fi
backup_root=$1
shift
pg_bin=${PG_BIN:+$PG_BIN/}

name=$(date -u +%Y-%m-%dT%H%M%SZ)
final="$backup_root/$name"
partial="$final.partial"
if [[ -e $final || -e $partial ]]; then
  echo "base_backup.sh: $final already exists" >&2
  exit 1
fi
mkdir -p -- "$backup_root"
trap 'rm -rf -- "$partial"' ERR
"${pg_bin}pg_basebackup" -D "$partial" --format=tar --gzip --wal-method=stream \
  --manifest-checksums=SHA256 --label="pitboss $name" --no-password "$@"
mv -- "$partial" "$final"
echo "$final"
