#!/usr/bin/env bash
# A PostgreSQL server of the bench's own, for the per-job cost columns: pg_stat_statements
# preloaded (the statement counts), and no other work on it (WAL is counted server-wide).
# Settings as the shared test server's: fsync and synchronous_commit on, shared_buffers 128 MB.
#
#   apps/bench/scripts/stats-server.sh start [port]   # default port 7330; data in /tmp/x-bench-pg-<port>
#   DATABASE_URL=postgres://postgres@127.0.0.1:7330/postgres pnpm bench --workload W1
#   apps/bench/scripts/stats-server.sh stop [port]
#
# Runs initdb/pg_ctl as the `postgres` user when started as root.
set -euo pipefail
action="${1:-start}"
port="${2:-7330}"
dir="/tmp/x-bench-pg-${port}"
bin="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)"
[ -x "${bin}/pg_ctl" ] || bin="$(dirname "$(command -v pg_ctl)")"
as_pg() { if [ "$(id -u)" = 0 ]; then su postgres -c "$*"; else bash -c "$*"; fi; }

case "$action" in
  start)
    if [ ! -f "${dir}/data/PG_VERSION" ]; then
      mkdir -p "$dir"
      [ "$(id -u)" = 0 ] && chown postgres "$dir"
      as_pg "'${bin}/initdb' -D '${dir}/data' -A trust -U postgres" > /dev/null
      cat >> "${dir}/data/postgresql.conf" <<CONF
port = ${port}
listen_addresses = '127.0.0.1'
unix_socket_directories = '${dir}'
shared_preload_libraries = 'pg_stat_statements'
shared_buffers = 128MB
max_connections = 100
CONF
    fi
    as_pg "'${bin}/pg_ctl' -D '${dir}/data' -l '${dir}/server.log' -w start" > /dev/null
    echo "postgres://postgres@127.0.0.1:${port}/postgres"
    ;;
  stop)
    as_pg "'${bin}/pg_ctl' -D '${dir}/data' -m fast -w stop" > /dev/null
    ;;
  *)
    echo "usage: $0 start|stop [port]" >&2
    exit 2
    ;;
esac
