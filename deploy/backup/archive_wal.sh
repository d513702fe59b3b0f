#!/usr/bin/env bash
# PostgreSQL's archive_command: copies one finished WAL segment (or history/backup file) into the
# WAL archive, the directory restore.sh reads. In postgresql.conf:
#
#   archive_mode = on
#   archive_command = '/opt/pitboss/deploy/backup/archive_wal.sh %p %f /var/lib/pitboss/wal-archive'
#
# Usage: archive_wal.sh SOURCE_PATH FILE_NAME ARCHIVE_DIR   (%p, %f, the archive; run as postgres)
#
# The copy is written under a temporary name, flushed to disk, then linked to its final name: a
# crash never leaves a half-written segment under a real name, and `ln` fails rather than replace a
# file. PostgreSQL retries a failed segment until it succeeds, so:
# - a file of that name with the same content (an earlier attempt that succeeded before a crash)
#   counts as archived (exit 0);
# - a file of that name with other content is never overwritten (exit 1, a message in the server's
#   log): two clusters writing one archive, or a restored cluster on the old timeline, must be
#   looked at by a person. pg_stat_archiver's failed_count rises until then; watch it.
set -euo pipefail

if [[ $# -ne 3 ]]; then
  echo "usage: $0 SOURCE_PATH FILE_NAME ARCHIVE_DIR" >&2
  exit 2
fi
source_path=$1
file_name=$2
archive=$3
target="$archive/$file_name"

if [[ -e $target ]]; then
  if cmp -s -- "$source_path" "$target"; then
    exit 0
  fi
  echo "archive_wal.sh: $target exists with other content; refusing to overwrite it" >&2
  exit 1
fi

temporary="$archive/.$file_name.$$.partial"
trap 'rm -f -- "$temporary"' EXIT
cp -- "$source_path" "$temporary"
sync -- "$temporary"
ln -- "$temporary" "$target"
sync -- "$archive"
