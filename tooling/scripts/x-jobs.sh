#!/usr/bin/env bash
# `pnpm x-jobs …`: builds the CLI and every package it loads (turbo: a cache hit takes about a
# second), then runs it with the arguments given. A build that takes longer than 2 s says so on
# stderr, so a first run (1–2 min on 2 cores) does not look hung; a failed build prints its errors.
set -uo pipefail
cd "$(dirname "$0")/../.."

( sleep 2 && echo "x-jobs: building the CLI and the packages it loads (a first run takes 1–2 min)…" >&2 ) &
notice=$!
log=$(turbo run build --filter=@x/jobs-cli... --output-logs=errors-only 2>&1)
status=$?
kill "$notice" 2>/dev/null
wait "$notice" 2>/dev/null
if [ "$status" -ne 0 ]; then
  echo "$log" >&2
  echo "x-jobs: the build failed (above); nothing was run." >&2
  exit "$status"
fi
exec node packages/jobs-cli/dist/cli.js "$@"
