#!/usr/bin/env bash
# A pg_auto_failover formation on one machine, for development and the failover test:
# a monitor, a primary and a synchronous secondary, each with its own data directory and port,
# all run as the `postgres` user. README "High availability: pg_auto_failover" explains it
# and how the same runs on separate machines.
#
#   scripts/ha/formation.sh start    # install the packages if missing, create or restart, print the URI
#   scripts/ha/formation.sh uri      # the multi-host DATABASE_URL for Kestrel, as pg_autoctl prints it
#   scripts/ha/formation.sh state    # pg_autoctl show state
#   scripts/ha/formation.sh tune     # the shorter failover timeouts (README "How fast a lost primary is replaced")
#   scripts/ha/formation.sh diagnose # the monitor's view, its last events, the end of each keeper's log
#   scripts/ha/formation.sh stop     # stop every node (data kept)
#   scripts/ha/formation.sh destroy  # stop and delete the data directories
#
# Settings (environment): KESTREL_HA_DIR (default /tmp/kestrel-ha), KESTREL_HA_PORT (first of
# three ports, default 5440: monitor, node 1, node 2), KESTREL_HA_DB (default kestrel).
set -euo pipefail

HA_DIR=${KESTREL_HA_DIR:-/tmp/kestrel-ha}
BASE_PORT=${KESTREL_HA_PORT:-5440}
DB_NAME=${KESTREL_HA_DB:-kestrel}
HOST=127.0.0.1
PG_BIN=/usr/lib/postgresql/15/bin
MONITOR_DIR=$HA_DIR/monitor
MONITOR_PORT=$BASE_PORT
NODES=(node1 node2)
MONITOR_URI="postgres://autoctl_node@$HOST:$MONITOR_PORT/pg_auto_failover?sslmode=disable"

# pg_autoctl finds pg_ctl on PATH; it must be PostgreSQL 15's, the version the extension is built for.
as_postgres() {
  runuser -u postgres -- env PATH="$PG_BIN:/usr/local/bin:/usr/bin:/bin" HOME=/var/lib/postgresql "$@"
}

install_packages() {
  if command -v pg_autoctl >/dev/null && [ -e /usr/share/postgresql/15/extension/pgautofailover.control ]; then return; fi
  echo "Installing Debian's pg_auto_failover packages…"
  apt-get update -q
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql-15-auto-failover pg-auto-failover-cli
}

node_port() { echo $((BASE_PORT + $1)); }

# Runs one node's keeper (which runs its postmaster) in the background, logging beside its data.
# pg_autoctl starts postgres with its configured listen_addresses ('*' unless told): this
# one-machine formation is for development, so every node listens on $HOST only.
listen_on_loopback() {
  as_postgres pg_autoctl config set --pgdata "$1" postgresql.listen_addresses "$HOST" >/dev/null
}

run_node() {
  local dir=$1
  if as_postgres pg_autoctl status --pgdata "$dir" >/dev/null 2>&1; then return; fi
  as_postgres bash -c "nohup pg_autoctl run --pgdata '$dir' >>'$dir.log' 2>&1 &"
}

wait_for() {
  local what=$1 tries=${2:-120}
  shift 2
  for _ in $(seq "$tries"); do
    if "$@" >/dev/null 2>&1; then return 0; fi
    sleep 1
  done
  echo "Timed out waiting for $what" >&2
  return 1
}

# What a service manager does for pg_autoctl on a real machine (the unit `pg_autoctl show
# systemd` prints has Restart=always): a keeper that exited, for instance after a transition it
# could not finish, is started again. A keeper that is running is left alone.
keep_keepers_running() {
  run_node "$MONITOR_DIR"
  for name in "${NODES[@]}"; do
    [ -e "$HA_DIR/$name/PG_VERSION" ] && run_node "$HA_DIR/$name"
  done
  return 0
}

formation_ready_supervised() {
  keep_keepers_running >/dev/null 2>&1
  formation_ready
}

# Printed when the formation does not come together, so a failure in CI can be read afterwards:
# the monitor's view, its last events and the end of each keeper's log.
diagnose() {
  {
    echo "--- pg_autoctl show state"
    as_postgres pg_autoctl show state --pgdata "$MONITOR_DIR" 2>&1 || true
    echo "--- pg_autoctl show events"
    as_postgres pg_autoctl show events --count 30 --pgdata "$MONITOR_DIR" 2>&1 || true
    for name in "${NODES[@]}"; do
      echo "--- $name: keeper $(as_postgres pg_autoctl status --pgdata "$HA_DIR/$name" >/dev/null 2>&1 && echo running || echo 'not running'); end of $name.log"
      tail -n 60 "$HA_DIR/$name.log" 2>&1 || true
    done
  } >&2
}

formation_ready() {
  local state
  state=$(as_postgres pg_autoctl show state --pgdata "$MONITOR_DIR" 2>/dev/null) || return 1
  grep -q '|  *primary |  *primary' <<<"$state" && grep -q '|  *secondary |  *secondary' <<<"$state"
}

start() {
  install_packages
  mkdir -p "$HA_DIR"
  chown postgres:postgres "$HA_DIR"
  if [ ! -e "$MONITOR_DIR/PG_VERSION" ]; then
    as_postgres pg_autoctl create monitor --pgdata "$MONITOR_DIR" --pgport "$MONITOR_PORT" \
      --hostname "$HOST" --auth trust --no-ssl
  fi
  listen_on_loopback "$MONITOR_DIR"
  run_node "$MONITOR_DIR"
  wait_for "the monitor" 60 as_postgres "$PG_BIN/pg_isready" -h "$HOST" -p "$MONITOR_PORT"

  local i=0
  for name in "${NODES[@]}"; do
    i=$((i + 1))
    local dir=$HA_DIR/$name
    if [ ! -e "$dir/PG_VERSION" ]; then
      # --replication-quorum true (the default): this node counts for synchronous_standby_names.
      as_postgres pg_autoctl create postgres --pgdata "$dir" --pgport "$(node_port "$i")" \
        --hostname "$HOST" --name "$name" --dbname "$DB_NAME" --monitor "$MONITOR_URI" \
        --listen "$HOST" --auth trust --no-ssl --replication-quorum true --candidate-priority 50
    fi
    listen_on_loopback "$dir"
    run_node "$dir"
    # The second node copies the first (pg_basebackup): the first must be up as primary first.
    if [ "$i" = 1 ]; then
      wait_for "$name to start" 120 as_postgres "$PG_BIN/pg_isready" -h "$HOST" -p "$(node_port 1)"
    fi
  done
  if ! wait_for "a primary and a secondary" 300 formation_ready_supervised; then
    diagnose
    exit 1
  fi
  # number_sync_standbys stays at its default, 0, with two data nodes: README "Which
  # synchronous setting". (pg_autoctl 2.0 refuses to *set* 0, "not a non-negative integer".)
  echo "number_sync_standbys: $(as_postgres pg_autoctl get formation number-sync-standbys --pgdata "$MONITOR_DIR")"
  as_postgres pg_autoctl show state --pgdata "$MONITOR_DIR"
  echo
  echo "DATABASE_URL=$(uri)"
  echo "(the URI names no user: give Kestrel its role as PGUSER, e.g. PGUSER=postgres here)"
}

# Exactly what pg_autoctl prints. It names no user: Kestrel takes the role from PGUSER, as libpq does.
uri() {
  as_postgres pg_autoctl show uri --pgdata "$MONITOR_DIR" --formation default
}

# The failover timeouts, shortened from pg_auto_failover's defaults (a lost primary costs about
# 50 s of payments with those) to aim at 15 s. Monitor (milliseconds): a node is checked every
# second, a check gives up after 1 s and is retried once; a node that neither answers nor
# reports for 4 s is unhealthy; the standby is promoted 6 s after the primary was told to stop
# taking writes, unless it confirmed earlier. Keeper (seconds): a primary that can reach
# neither the monitor nor its standby for 4 s demotes itself — before the monitor's 6 s are up,
# so an old primary cut off by the network stops writing before the standby is promoted.
# The cost, on a slow or lossy network: a few lost health checks are enough to fail over.
MONITOR_SETTINGS=(
  pgautofailover.health_check_period=1000
  pgautofailover.health_check_timeout=1000
  pgautofailover.health_check_max_retries=1
  pgautofailover.health_check_retry_delay=500
  pgautofailover.node_considered_unhealthy_timeout=4000
  pgautofailover.primary_demote_timeout=6000
)
KEEPER_SETTINGS=(
  timeout.network_partition_timeout=4
)

tune() {
  local setting
  for setting in "${MONITOR_SETTINGS[@]}"; do
    as_postgres "$PG_BIN/psql" -qAt -h "$HOST" -p "$MONITOR_PORT" -d pg_auto_failover \
      -c "ALTER SYSTEM SET ${setting%%=*} = ${setting#*=}"
  done
  as_postgres "$PG_BIN/psql" -qAt -h "$HOST" -p "$MONITOR_PORT" -d pg_auto_failover -c "SELECT pg_reload_conf()" >/dev/null
  for name in "${NODES[@]}"; do
    local dir=$HA_DIR/$name
    for setting in "${KEEPER_SETTINGS[@]}"; do
      as_postgres pg_autoctl config set --pgdata "$dir" "${setting%%=*}" "${setting#*=}" >/dev/null
    done
    as_postgres pg_autoctl reload --pgdata "$dir" 2>/dev/null || true
  done
  echo "Failover timeouts: ${MONITOR_SETTINGS[*]} ${KEEPER_SETTINGS[*]}"
}

stop() {
  for name in "${NODES[@]}" monitor; do
    local dir=$HA_DIR/$name
    [ -e "$dir/PG_VERSION" ] || continue
    as_postgres pg_autoctl stop --pgdata "$dir" 2>/dev/null || true
  done
  # Wait for the keepers to stop their postmasters.
  for name in "${NODES[@]}" monitor; do
    local dir=$HA_DIR/$name
    [ -e "$dir/postmaster.pid" ] || continue
    wait_for "$name to stop" 60 bash -c "[ ! -e '$dir/postmaster.pid' ]" || true
  done
}

case "${1:-}" in
  start) start ;;
  uri) uri ;;
  state) as_postgres pg_autoctl show state --pgdata "$MONITOR_DIR" ;;
  tune) tune ;;
  diagnose) diagnose 2>&1 ;;
  stop) stop ;;
  destroy) stop; rm -rf "$HA_DIR" "/var/lib/postgresql/.config/pg_autoctl$HA_DIR" "/var/lib/postgresql/.local/share/pg_autoctl$HA_DIR" ;;
  *) echo "usage: $0 start|uri|state|tune|diagnose|stop|destroy" >&2; exit 2 ;;
esac
