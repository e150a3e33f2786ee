#!/usr/bin/env bash
# Starts the PostgreSQL and Redis the test suite talks to, when they are installed but not running,
# and waits until both answer. When one is not installed it prints exactly what to install and
# exits 1. Reads DATABASE_URL / REDIS_URL (defaults: the loopback services) only to pick host/port.
set -u

pg_host=127.0.0.1; pg_port=5432; redis_host=127.0.0.1; redis_port=6379
if [ -n "${DATABASE_URL:-}" ]; then
  rest=${DATABASE_URL#*://}; rest=${rest#*@}; hostport=${rest%%/*}
  pg_host=${hostport%%:*}; [ "$hostport" != "$pg_host" ] && pg_port=${hostport##*:}
fi
if [ -n "${REDIS_URL:-}" ]; then
  rest=${REDIS_URL#*://}; rest=${rest#*@}; hostport=${rest%%/*}
  redis_host=${hostport%%:*}; [ "$hostport" != "$redis_host" ] && redis_port=${hostport##*:}
fi

missing=0
wait_for() { # name probe-command...
  local name=$1; shift
  for _ in $(seq 1 60); do "$@" >/dev/null 2>&1 && { echo "services: $name is up"; return 0; }; sleep 0.5; done
  echo "services: $name did not answer within 30 s" >&2; return 1
}

# PostgreSQL
if command -v pg_isready >/dev/null 2>&1 && pg_isready -h "$pg_host" -p "$pg_port" -q; then
  echo "services: PostgreSQL is up at $pg_host:$pg_port"
elif command -v pg_ctlcluster >/dev/null 2>&1 && [ -d /etc/postgresql ]; then
  echo "services: starting PostgreSQL"
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n 1)" main start || true
  wait_for PostgreSQL pg_isready -h "$pg_host" -p "$pg_port" -q || missing=1
else
  echo "services: PostgreSQL is not installed. Install it with:" >&2
  echo "  sudo apt-get install -y postgresql   # Debian/Ubuntu; then allow trust auth on 127.0.0.1" >&2
  echo "  or point DATABASE_URL at a PostgreSQL 14+ server" >&2
  missing=1
fi

# Redis
if command -v redis-cli >/dev/null 2>&1 && redis-cli -h "$redis_host" -p "$redis_port" ping 2>/dev/null | grep -q PONG; then
  echo "services: Redis is up at $redis_host:$redis_port"
elif command -v redis-server >/dev/null 2>&1; then
  echo "services: starting Redis"
  mkdir -p /var/lib/redis /var/log/redis 2>/dev/null || true
  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port "$redis_port" --save "" --appendonly no \
    --dir /var/lib/redis --logfile /var/log/redis/ci.log || true
  wait_for Redis sh -c "redis-cli -h $redis_host -p $redis_port ping | grep -q PONG" || missing=1
else
  echo "services: Redis is not installed. Install it with:" >&2
  echo "  sudo apt-get install -y redis-server   # Debian/Ubuntu (Redis 7)" >&2
  echo "  or point REDIS_URL at a Redis 6.2+ server" >&2
  missing=1
fi

exit $missing
