#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the test suite: its own data directory, loopback only, a
# random free port, trust authentication for one role, fsync off (test data only).
#   eval "$(scripts/postgres-test-cluster.sh start)"   # exports KILN_TEST_POSTGRES and KILN_TEST_POSTGRES_DIR
#   scripts/postgres-test-cluster.sh stop "$KILN_TEST_POSTGRES_DIR"
set -euo pipefail
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -n "$bin" ] || { echo "postgres-test-cluster: PostgreSQL server binaries not found (install postgresql)" >&2; exit 69; }

as_owner() {
  # initdb and postgres refuse to run as root: use the postgres account then.
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case "${1:-}" in
  start)
    dir=$(mktemp -d /tmp/kiln-pg.XXXXXX)
    [ "$(id -u)" -eq 0 ] && chown postgres: "$dir"
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    as_owner "$bin/initdb" -D "$dir/data" -U kiln -A trust --no-sync -E UTF8 >"$dir/initdb.log" 2>&1 \
      || { cat "$dir/initdb.log" >&2; exit 70; }
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
      -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c max_connections=200" \
      start >/dev/null 2>&1 </dev/null || { cat "$dir/server.log" >&2; exit 70; }
    echo "export KILN_TEST_POSTGRES='postgres://kiln@127.0.0.1:$port/postgres' KILN_TEST_POSTGRES_DIR='$dir'"
    ;;
  restart)
    # For the reconnect test: the server goes away and comes back on the same port.
    dir="${2:?usage: $0 restart DIR}"
    # The restarted server must not hold the caller's output open.
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -m fast -w -t 60 restart >/dev/null 2>&1 </dev/null
    ;;
  stop)
    dir="${2:?usage: $0 stop DIR}"
    as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
    rm -rf "$dir"
    ;;
  *) echo "usage: $0 start | restart DIR | stop DIR" >&2; exit 64 ;;
esac
