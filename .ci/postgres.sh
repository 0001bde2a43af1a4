# Sourced by .ci/run (and usable by hand: `source .ci/postgres.sh; pg_start`):
# a throwaway PostgreSQL cluster in a temporary directory, reachable only
# through a unix socket there, stopped and removed by pg_stop.
# Exports PERMITS_TEST_POSTGRES_URL, the URL the PostgreSQL tests use.

PG_PORT="${PG_PORT:-54329}"

# The server's own bin directory (it has createdb too); else wherever initdb is.
_pg_bin() {
  local d last=""
  for d in /usr/lib/postgresql/*/bin; do [ -x "$d/initdb" ] && last="$d"; done
  if [ -n "$last" ]; then echo "$last"; return; fi
  command -v initdb >/dev/null 2>&1 && dirname "$(readlink -f "$(command -v initdb)")"
}

# initdb refuses to run as root: as root, run the server as `postgres`.
_pg_as() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

pg_start() {
  local bin
  bin=$(_pg_bin) || true
  if [ -z "$bin" ]; then echo "ci: PostgreSQL (initdb) not found" >&2; return 1; fi
  PG_DIR=$(mktemp -d /tmp/permits-pg.XXXXXX)
  chmod 755 "$PG_DIR"
  [ "$(id -u)" = 0 ] && chown postgres "$PG_DIR"
  _pg_as "$bin/initdb" -D "$PG_DIR/data" -U postgres -A trust -E UTF8 --no-sync >"$PG_DIR/initdb.log" 2>&1 \
    || { cat "$PG_DIR/initdb.log" >&2; return 1; }
  _pg_as "$bin/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/server.log" -w -t 60 \
    -o "-p $PG_PORT -k $PG_DIR -c listen_addresses='' -c fsync=off" start >/dev/null \
    || { cat "$PG_DIR/server.log" >&2; return 1; }
  _pg_as "$bin/createdb" -h "$PG_DIR" -p "$PG_PORT" -U postgres permits_test
  export PERMITS_TEST_POSTGRES_URL="postgresql+psycopg://postgres@/permits_test?host=$PG_DIR&port=$PG_PORT"
  PG_BIN="$bin"
  echo "ci: PostgreSQL started in $PG_DIR (socket, port $PG_PORT)"
}

pg_stop() {
  [ -n "${PG_DIR:-}" ] || return 0
  _pg_as "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m fast -w stop >/dev/null 2>&1 || true
  rm -rf "$PG_DIR"
  PG_DIR=
}
