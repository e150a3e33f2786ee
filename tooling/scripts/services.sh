#!/usr/bin/env bash
# Starts the PostgreSQL, Redis and Redis Cluster the test suite talks to, when they are installed but not running,
# and waits until both answer. When one is not installed it prints exactly what to install and
# exits 1. Also installs Chromium (apt) for the dashboard browser tests. Reads DATABASE_URL / REDIS_URL (defaults: the loopback services) only to pick host/port.
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

# Redis Cluster: three masters on loopback (the Redis driver's conformance suite runs on it too).
# Each node keeps its cluster state in its own directory under $cluster_dir; a cluster that is
# already up is left alone, one that is half up is started afresh.
cluster_ports="7101 7102 7103"
cluster_dir=${XJOBS_CLUSTER_DIR:-/tmp/xjobs-redis-cluster}
cluster_ok() { redis-cli -h 127.0.0.1 -p 7101 cluster info 2>/dev/null | grep -q 'cluster_state:ok'; }
if ! command -v redis-server >/dev/null 2>&1; then
  echo "services: redis-server is not installed, so no Redis Cluster (see Redis above)" >&2
  missing=1
elif cluster_ok; then
  echo "services: Redis Cluster is up at 127.0.0.1:7101-7103"
else
  echo "services: starting a 3-master Redis Cluster on 127.0.0.1:7101-7103"
  for port in $cluster_ports; do
    redis-cli -h 127.0.0.1 -p "$port" shutdown nosave >/dev/null 2>&1 || true
  done
  for port in $cluster_ports; do
    for _ in $(seq 1 20); do redis-cli -h 127.0.0.1 -p "$port" ping >/dev/null 2>&1 || break; sleep 0.25; done
    rm -rf "${cluster_dir:?}/$port"; mkdir -p "$cluster_dir/$port"
    redis-server --port "$port" --bind 127.0.0.1 --cluster-enabled yes --cluster-config-file nodes.conf \
      --cluster-node-timeout 5000 --save "" --appendonly no --daemonize yes \
      --dir "$cluster_dir/$port" --logfile "$cluster_dir/$port/redis.log" || true
  done
  for port in $cluster_ports; do
    wait_for "Redis Cluster node $port" redis-cli -h 127.0.0.1 -p "$port" ping || missing=1
  done
  # shellcheck disable=SC2046
  redis-cli --cluster create $(for port in $cluster_ports; do printf '127.0.0.1:%s ' "$port"; done) \
    --cluster-replicas 0 --cluster-yes >/dev/null 2>&1 || true
  wait_for "Redis Cluster" cluster_ok || missing=1
fi

# Chromium, for @x/jobs-dashboard's browser tests (playwright-core drives it and never downloads a
# browser). Installed with apt when missing and we are root; quiet, and a no-op once present.
chromium=${CHROMIUM_PATH:-/usr/bin/chromium}
apt_chromium() { DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null 2>&1; }
if [ -x "$chromium" ]; then
  echo "services: Chromium is at $chromium"
elif command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
  echo "services: installing Chromium with apt"
  if { apt_chromium || { apt-get update -qq >/dev/null 2>&1 && apt_chromium; }; } && [ -x "$chromium" ]; then
    echo "services: Chromium is at $chromium"
  else
    echo "services: apt-get install chromium failed, or left no $chromium" >&2; missing=1
  fi
else
  echo "services: Chromium is not installed. Install it with:" >&2
  echo "  sudo apt-get install -y chromium   # Debian/Ubuntu; or set CHROMIUM_PATH" >&2
  missing=1
fi

exit $missing
