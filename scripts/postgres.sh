# A throwaway PostgreSQL server for the tests (issue 4): Debian's packages, a temporary data
# directory, 127.0.0.1 on a free port (plus a Unix socket in the temporary directory), run as the
# non-root user "postgres" when we are root. The system cluster (/etc/postgresql,
# /var/lib/postgresql) is never used or touched.
#
# Sourced by scripts/test:   source scripts/postgres.sh; pg_test_start; trap pg_test_stop EXIT
#   pg_test_start exports GUOBIAO_TEST_POSTGRES_URL (postgresql+psycopg://..., a database the
#   tests may create other databases from) and GUOBIAO_TEST_POSTGRES_DIR (the temporary dir).
# Run directly (tests/test_store.py does so when the variable is absent, for a plain `pytest`):
#   bash scripts/postgres.sh start      prints the two variables as NAME=value lines
#   bash scripts/postgres.sh stop DIR   stops that server and removes DIR

pg_test_bindir() {
    local dir
    dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
    [ -n "$dir" ] && [ -x "$dir/initdb" ] && echo "$dir"
}

pg_test_install() {
    if pg_test_bindir >/dev/null; then
        return 0
    fi
    if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
        echo "postgres.sh: PostgreSQL is not installed (apt-get install postgresql, as root)" >&2
        return 1
    fi
    echo "== installing PostgreSQL (Debian's postgresql package)" >&2
    # Debian's standard switch (policy-rc.d exit 101) keeps the package from starting the system
    # cluster it creates; ours is the only server that runs.
    local policy=/usr/sbin/policy-rc.d ours=0 status=0
    if [ ! -e "$policy" ]; then
        printf '#!/bin/sh\nexit 101\n' >"$policy" && chmod 755 "$policy" && ours=1
    fi
    # waiting up to 10 minutes for another apt or dpkg to let go of its lock
    apt-get -o DPkg::Lock::Timeout=600 update -qq >&2 &&
        DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq \
            postgresql >/dev/null || status=$?
    if [ "$ours" = 1 ]; then
        rm -f "$policy"
    fi
    [ "$status" = 0 ] && pg_test_bindir >/dev/null
}

# Run a PostgreSQL program as the server's user, from inside the temporary directory.
_pg_test_as() {
    local dir="$1"
    shift
    if [ "$(id -u)" = 0 ]; then
        (cd "$dir" && runuser -u postgres -- "$@")
    else
        (cd "$dir" && "$@")
    fi
}

pg_test_start() {
    pg_test_install || return 1
    local bin dir port password
    bin=$(pg_test_bindir)
    dir=$(mktemp -d "${TMPDIR:-/tmp}/guobiao-pg.XXXXXX") || return 1
    mkdir -p "$dir/socket"
    password=$(python3 -c 'import secrets; print(secrets.token_hex(16))')
    printf '%s\n' "$password" >"$dir/pwfile"
    if [ "$(id -u)" = 0 ]; then
        chown -R postgres: "$dir"
    fi
    chmod 700 "$dir"
    if ! _pg_test_as "$dir" "$bin/initdb" -D "$dir/data" -U postgres --pwfile="$dir/pwfile" \
        --auth-local=trust --auth-host=scram-sha-256 -E UTF8 --no-locale --no-sync \
        >"$dir/initdb.log" 2>&1; then
        cat "$dir/initdb.log" >&2
        rm -rf "$dir"
        return 1
    fi
    rm -f "$dir/pwfile"
    local tries=0
    while :; do
        port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
        # fsync off: a test server, thrown away at the end (crash tests kill clients, not it)
        if _pg_test_as "$dir" "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
            -o "-c listen_addresses=127.0.0.1 -p $port -k $dir/socket -c fsync=off -c full_page_writes=off -c synchronous_commit=off -c max_connections=200" \
            start >/dev/null; then
            break
        fi
        tries=$((tries + 1))
        if [ "$tries" -ge 3 ]; then
            echo "postgres.sh: the server did not start; its log:" >&2
            cat "$dir/server.log" >&2
            rm -rf "$dir"
            return 1
        fi
    done
    if ! _pg_test_as "$dir" "$bin/createdb" -h "$dir/socket" -p "$port" -U postgres guobiao_test; then
        GUOBIAO_TEST_POSTGRES_DIR="$dir" pg_test_stop
        return 1
    fi
    export GUOBIAO_TEST_POSTGRES_DIR="$dir"
    export GUOBIAO_TEST_POSTGRES_URL="postgresql+psycopg://postgres:$password@127.0.0.1:$port/guobiao_test"
}

pg_test_stop() {
    local dir="${1:-${GUOBIAO_TEST_POSTGRES_DIR:-}}" bin
    [ -n "$dir" ] && [ -d "$dir" ] || return 0
    bin=$(pg_test_bindir)
    if [ -n "$bin" ] && [ -f "$dir/data/postmaster.pid" ]; then
        _pg_test_as "$dir" "$bin/pg_ctl" -D "$dir/data" -m immediate -w -t 30 stop >/dev/null 2>&1 || true
    fi
    rm -rf "$dir"
    unset GUOBIAO_TEST_POSTGRES_URL GUOBIAO_TEST_POSTGRES_DIR
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    set -euo pipefail
    case "${1:-}" in
    start)
        pg_test_start
        echo "GUOBIAO_TEST_POSTGRES_URL=$GUOBIAO_TEST_POSTGRES_URL"
        echo "GUOBIAO_TEST_POSTGRES_DIR=$GUOBIAO_TEST_POSTGRES_DIR"
        ;;
    stop)
        pg_test_stop "${2:?usage: postgres.sh stop DIR}"
        ;;
    *)
        echo "usage: bash scripts/postgres.sh start | stop DIR" >&2
        exit 2
        ;;
    esac
fi
