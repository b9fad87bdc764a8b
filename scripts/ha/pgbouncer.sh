#!/usr/bin/env bash
# PgBouncer (Debian's package, 1.18) in transaction mode in front of a PostgreSQL server, for
# development and the tests through it (README "Behind PgBouncer"); run as root, PgBouncer
# itself runs as the `postgres` user.
#
#   scripts/ha/pgbouncer.sh start   # install the package if missing, start, print the URL
#   scripts/ha/pgbouncer.sh stop    # stop the PgBouncer this script started (its pid file)
#
# Settings (environment): KESTREL_PGBOUNCER_DIR (default /tmp/kestrel-pgbouncer),
# KESTREL_PGBOUNCER_PORT (default 6440), KESTREL_PGBOUNCER_TARGET (host:port of PostgreSQL,
# default 127.0.0.1:5432), KESTREL_PGBOUNCER_POOL (server connections per database and user, default 4).
set -euo pipefail

DIR=${KESTREL_PGBOUNCER_DIR:-/tmp/kestrel-pgbouncer}
PORT=${KESTREL_PGBOUNCER_PORT:-6440}
TARGET=${KESTREL_PGBOUNCER_TARGET:-127.0.0.1:5432}
POOL=${KESTREL_PGBOUNCER_POOL:-4}

start() {
  if ! command -v pgbouncer >/dev/null; then
    echo "Installing Debian's pgbouncer…"
    apt-get update -q
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q pgbouncer
  fi
  mkdir -p "$DIR"
  # Every database name goes to the same server (the test suite makes a fresh database per run).
  # Kestrel sends its timeouts as start-up parameters, which PgBouncer refuses unless ignored:
  # through PgBouncer they are set on the role instead (README "Behind PgBouncer").
  cat >"$DIR/pgbouncer.ini" <<EOF
[databases]
* = host=${TARGET%:*} port=${TARGET#*:}

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = $PORT
unix_socket_dir =
auth_type = trust
auth_file = $DIR/userlist.txt
pool_mode = transaction
default_pool_size = $POOL
max_client_conn = 1000
ignore_startup_parameters = statement_timeout,idle_in_transaction_session_timeout
logfile = $DIR/pgbouncer.log
pidfile = $DIR/pgbouncer.pid
EOF
  echo '"postgres" ""' >"$DIR/userlist.txt"
  chown -R postgres:postgres "$DIR"
  if [ -e "$DIR/pgbouncer.pid" ] && kill -0 "$(cat "$DIR/pgbouncer.pid")" 2>/dev/null; then
    kill -HUP "$(cat "$DIR/pgbouncer.pid")"
  else
    runuser -u postgres -- pgbouncer -d "$DIR/pgbouncer.ini"
  fi
  for _ in $(seq 50); do
    if pg_isready -q -h 127.0.0.1 -p "$PORT"; then break; fi
    sleep 0.2
  done
  echo "DATABASE_URL=postgres://postgres@127.0.0.1:$PORT/postgres DATABASE_NAMED_STATEMENTS=off"
}

stop() {
  [ -e "$DIR/pgbouncer.pid" ] || return 0
  local pid
  pid=$(cat "$DIR/pgbouncer.pid")
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 50); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  rm -f "$DIR/pgbouncer.pid"
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  *) echo "usage: $0 start|stop" >&2; exit 2 ;;
esac
