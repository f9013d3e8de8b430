# Shared-library scenarios of Scripts/reliability.sh (issue 30), sourced by it: kill -9 at random
# moments of the commands that move a shared library's photos about, against the local PostgreSQL
# and SeaweedFS of Scripts/shared-library.sh (each scenario in a database and key prefix of its own).
#
#   sdelete  `album delete-asset` of 8 photos at once killed at a random moment: each photo is in
#            its albums or in recently deleted, never gone, and the 8 moved together or not at all.
#   srestore `album restore` of the deleted ones killed the same way: the same, the other way.
#   sexport  `album export` of a 40-photo album killed, then run again into the same folder: every
#            photo there once, byte for byte, nothing half-written under a photo's name.
#   scopy    `album copy` of the library into a catalog killed, then run again: every photo once in
#            the catalog and in its album, verify passes, and a third run copies nothing.
#   ssave    `album save` of 150 new photos killed at a random moment (uploads of one batch run
#            while the one before commits): every photo it printed is in the album with its object;
#            nothing else is wrong but objects no row names, which `gc` removes once the killed
#            session is gone (then verify is clean, no upload record left); the save run again
#            leaves the 150 photos once each.
#   shostile a member of the writer role edits the tables by hand (issue 41): 10 photos and the album
#            dated deleted in 1970, an original renamed, who-saved rewritten, a row naming its original
#            by a path; the owner's routine `gc` then removes nothing (the server kept its own times),
#            the edits the server refuses leave nothing changed; a row naming a path (planted by the
#            owner with the checks set aside, as a restored dump could hold) is removed by gc without
#            following it; an endpoint with a secret in it is refused and never printed.
#   srestart `album save` of 200 photos while PostgreSQL is stopped (fast shutdown) at a random
#            moment 0-4 s after the saver opened the library, and started 2 s later: the save exits 0, prints all 200, the album holds them
#            once each, no upload record is left, verify passes.
#   sforgedpreview  the kept thumbnails in the store (Docs/previews.md) forged by anyone with the
#            store's keys: cut short, text, a PNG, a JPEG larger than its size: each is made again
#            and put in its place, never served; objects under the prefix AlbumKit never makes
#            (other names under derivatives/, one beside it) are left by gc, which removes the
#            thumbnails of photos removed for good and nothing else; verify stays clean.
# Each keeps to a few trials in --short (under a minute each on 2 cores).

SHARED_ENV_READY=""
SHARED_TRIALS=${SHARED_TRIALS:-6}  # SHARED_TRIALS=N: as many trials in --short
[ "$MODE" = full ] && SHARED_TRIALS=40

# shared_up: the servers' exports in this shell (once); fails when they cannot start.
shared_up() {
    [ -n "$SHARED_ENV_READY" ] && return 0
    local exports
    # As the tests do: the servers this harness starts are its own, stopped when it ends (`release`
    # in cleanup, or the script's watcher should the harness be killed); ones already running stay.
    exports=$(ALBUMKIT_SHARED_USER_PID=$$ ALBUMKIT_SKIP_INIT=1 bash "$ROOT/Scripts/shared-library.sh" up \
        2>"$WORK/shared-up.err") || return 1
    eval "$(grep '^export ' <<<"$exports")"
    command -v psql >/dev/null 2>&1 || return 1
    SHARED_ENV_READY=1
}

# shared_library NAME: a new library (its own database and prefix) in SLIB, with 40 photos in
# "Family", the first 10 also in "Trips"; their ids in $WORK/NAME.ids, sources in $WORK/NAME-media.
shared_library() {
    local name=$1 db
    db="rel_${name}_$(date +%s%N | tail -c 9)"
    psql "$ALBUMKIT_LIBRARY" -qAtc "CREATE DATABASE $db" >/dev/null || return 1
    SLIB="${ALBUMKIT_LIBRARY%/*}/$db"
    "$ALBUM" --library "$SLIB" init -q --endpoint "$ALBUMKIT_S3_ENDPOINT" --bucket "$ALBUMKIT_S3_BUCKET" \
        --prefix "$db/" || return 1
    make_jpegs "$WORK/$name-media" 40 "$name"
    "$ALBUM" --library "$SLIB" save --json --album Family "$WORK/$name-media"/*.jpg >"$WORK/$name.saved" || return 1
    "$ALBUM" --library "$SLIB" save -q --album Trips $(ls "$WORK/$name-media"/*.jpg | head -10) >/dev/null || return 1
    sed -n 's/.*"asset":"\([^"]*\)".*/\1/p' "$WORK/$name.saved" >"$WORK/$name.ids"
    [ "$(wc -l <"$WORK/$name.ids")" = 40 ]
}

# shared_check NAME IDS...: every photo of NAME is in "Family" or in recently deleted (never both,
# never neither); the IDS given moved together (all in recently deleted, or none). Prints problems.
shared_check() {
    local name=$1
    shift
    "$ALBUM" --library "$SLIB" show --json Family >"$WORK/$name.family" 2>&1 || { fail "$name: show failed: $(head -c 300 "$WORK/$name.family")"; return 1; }
    "$ALBUM" --library "$SLIB" deleted --json >"$WORK/$name.deleted" 2>&1 || { fail "$name: deleted failed"; return 1; }
    python3 - "$WORK/$name.ids" "$WORK/$name.family" "$WORK/$name.deleted" "$@" <<'PY'
import json, sys
ids = open(sys.argv[1]).read().split()
family = {a["id"] for a in json.load(open(sys.argv[2]))}
deleted = {a["id"] for a in json.load(open(sys.argv[3])) if a["kind"] == "asset"}
bad = 0
for i in ids:
    if (i in family) == (i in deleted):
        print(f"  FAIL {i} is {'in both Family and recently deleted' if i in family else 'gone: in neither its album nor recently deleted'}")
        bad += 1
moved = sys.argv[4:]
if moved and len({m in deleted for m in moved}) > 1:
    print(f"  FAIL {sum(m in deleted for m in moved)} of the {len(moved)} photos of one command moved: not all or nothing")
    bad += 1
sys.exit(1 if bad else 0)
PY
}

# kill_at_random PID MAX_MS: kill -9 PID after 0..MAX_MS ms; KILLED_AFTER says when, and whether
# it was still running then (the windows are set so that most kills land mid-run).
kill_at_random() {
    local pid=$1 delay=$((RANDOM % $2))
    sleep "$(printf '%d.%03d' $((delay / 1000)) $((delay % 1000)))"
    if kill -9 "$pid" 2>/dev/null; then KILLED_AFTER="$delay ms (mid-run)"; else KILLED_AFTER="$delay ms (it had finished)"; fi
    wait "$pid" 2>/dev/null
}

scenario_sdelete() { shared_delete_restore sdelete; }
scenario_srestore() { shared_delete_restore srestore; }

# shared_delete_restore SCENARIO: delete-asset (sdelete) or restore (srestore) killed at random.
shared_delete_restore() {
    local scenario=$1 trials=0 failures=0 trial ids pid
    echo "== $scenario"
    shared_up || { skip "$scenario" "the shared-library servers cannot start: $(tail -c 300 "$WORK/shared-up.err")"; return; }
    shared_library "$scenario" || { fail "$scenario: could not set up the library"; summary "$scenario" 1 1; return; }
    for ((trial = 1; trial <= SHARED_TRIALS; trial++)); do
        trials=$((trials + 1))
        mapfile -t ids < <(shuf -n 8 "$WORK/$scenario.ids")
        if [ "$scenario" = srestore ]; then
            "$ALBUM" --library "$SLIB" delete-asset -q "${ids[@]}" >/dev/null 2>&1
            "$ALBUM" --library "$SLIB" restore -q "${ids[@]}" >/dev/null 2>&1 &
        else
            "$ALBUM" --library "$SLIB" delete-asset -q "${ids[@]}" >/dev/null 2>&1 &
        fi
        pid=$!
        kill_at_random "$pid" 70
        if shared_check "$scenario" "${ids[@]}"; then
            echo "  trial $trial: killed after ${KILLED_AFTER}"
        else
            failures=$((failures + 1))
        fi
        # Back to the start for the next trial: whatever is in recently deleted comes back.
        python3 -c 'import json,sys; print(" ".join(a["id"] for a in json.load(open(sys.argv[1])) if a["kind"]=="asset"))' \
            "$WORK/$scenario.deleted" | xargs -r "$ALBUM" --library "$SLIB" restore -q >/dev/null 2>&1
    done
    shared_check "$scenario" || failures=$((failures + 1))
    "$ALBUM" --library "$SLIB" verify >/dev/null 2>&1 || { fail "$scenario: verify failed"; failures=$((failures + 1)); }
    summary "$scenario" "$trials" "$failures" "kill -9 of $([ "$scenario" = sdelete ] && echo delete-asset || echo restore) of 8 photos: each in its albums or in recently deleted, all 8 or none moved"
}

# sources_match DIR NAME: DIR holds exactly the 40 photos of NAME (by SHA-256), each once.
sources_match() {
    local dir=$1 name=$2
    diff <(cd "$WORK/$name-media" && sha256sum -- *.jpg | cut -d' ' -f1 | sort) \
        <(cd "$dir" && sha256sum -- * 2>/dev/null | cut -d' ' -f1 | sort) >/dev/null
}

scenario_sexport() {
    local trials=0 failures=0 trial out pid
    echo "== sexport"
    shared_up || { skip sexport "the shared-library servers cannot start: $(tail -c 300 "$WORK/shared-up.err")"; return; }
    shared_library sexport || { fail "sexport: could not set up the library"; summary sexport 1 1; return; }
    for ((trial = 1; trial <= SHARED_TRIALS; trial++)); do
        trials=$((trials + 1))
        out=$WORK/sexport-out-$trial
        "$ALBUM" --library "$SLIB" export Family "$out" >/dev/null 2>&1 &
        pid=$!
        kill_at_random "$pid" 600
        local before
        before=$(find "$out" -maxdepth 1 -type f -not -name '.*' 2>/dev/null | wc -l)
        # Every file that has a photo's name is a whole photo.
        if [ -d "$out" ] && ! (cd "$out" && for f in *; do [ -e "$f" ] || continue; cmp -s "$f" "$WORK/sexport-media/$f" || { echo "  FAIL $f is not the photo it is named after"; exit 1; }; done); then
            failures=$((failures + 1))
            continue
        fi
        if ! "$ALBUM" --library "$SLIB" export Family "$out" >"$WORK/sexport.rerun" 2>&1; then
            fail "sexport trial $trial: the export run again failed: $(head -c 300 "$WORK/sexport.rerun")"
            failures=$((failures + 1))
        elif ! sources_match "$out" sexport || [ "$(ls -A "$out" | grep -vc '^\.')" != 40 ]; then
            fail "sexport trial $trial: the folder does not hold the 40 photos once each ($(ls -A "$out" | wc -l) entries)"
            failures=$((failures + 1))
        else
            echo "  trial $trial: killed after ${KILLED_AFTER} with $before photos written; the rerun finished"
        fi
    done
    summary sexport "$trials" "$failures" "kill -9 of export of 40 photos, then again into the same folder: each photo there once, byte for byte"
}

scenario_scopy() {
    local trials=0 failures=0 trial target pid count
    echo "== scopy"
    shared_up || { skip scopy "the shared-library servers cannot start: $(tail -c 300 "$WORK/shared-up.err")"; return; }
    shared_library scopy || { fail "scopy: could not set up the library"; summary scopy 1 1; return; }
    for ((trial = 1; trial <= SHARED_TRIALS; trial++)); do
        trials=$((trials + 1))
        target=$WORK/scopy-$trial.albumlibrary
        "$ALBUM" copy --from "$SLIB" --to "$target" >/dev/null 2>&1 &
        pid=$!
        kill_at_random "$pid" 1400
        if ! "$ALBUM" copy --from "$SLIB" --to "$target" >"$WORK/scopy.rerun" 2>&1; then
            fail "scopy trial $trial: the copy run again failed: $(head -c 300 "$WORK/scopy.rerun")"
            failures=$((failures + 1))
            continue
        fi
        count=$("$ALBUM" --library "$target" assets --json 2>/dev/null | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')
        local ok=1
        [ "$count" = 40 ] || { fail "scopy trial $trial: the catalog holds $count photos, not 40"; ok=0; }
        mkdir -p "$WORK/scopy-check-$trial"
        "$ALBUM" --library "$target" export -q Family "$WORK/scopy-check-$trial" >/dev/null 2>&1
        sources_match "$WORK/scopy-check-$trial" scopy || { fail "scopy trial $trial: Family in the catalog is not the 40 photos once each"; ok=0; }
        verify_ok "$target" || ok=0
        "$ALBUM" copy --from "$SLIB" --to "$target" 2>&1 | grep -q "nothing to copy" ||
            { fail "scopy trial $trial: a third run copied something"; ok=0; }
        if [ "$ok" = 1 ]; then
            echo "  trial $trial: killed after ${KILLED_AFTER}; the rerun finished: $(head -c 120 "$WORK/scopy.rerun")"
            rm -rf "$target" "$WORK/scopy-check-$trial"
        else
            failures=$((failures + 1))
        fi
    done
    summary scopy "$trials" "$failures" "kill -9 of copy of 40 photos into a catalog, then again: every photo once, in its album, verify passes"
}

scenario_ssave() {
    local trials=0 failures=0 trial pid media db acknowledged count problems
    echo "== ssave"
    shared_up || { skip ssave "the shared-library servers cannot start: $(tail -c 300 "$WORK/shared-up.err")"; return; }
    db="rel_ssave_$(date +%s%N | tail -c 9)"
    psql "$ALBUMKIT_LIBRARY" -qAtc "CREATE DATABASE $db" >/dev/null &&
        "$ALBUM" --library "${ALBUMKIT_LIBRARY%/*}/$db" init -q --endpoint "$ALBUMKIT_S3_ENDPOINT" \
            --bucket "$ALBUMKIT_S3_BUCKET" --prefix "$db/" ||
        { fail "ssave: could not set up the library"; summary ssave 1 1; return; }
    SLIB="${ALBUMKIT_LIBRARY%/*}/$db"
    for ((trial = 1; trial <= SHARED_TRIALS; trial++)); do
        trials=$((trials + 1))
        media=$WORK/ssave-media-$trial
        make_jpegs "$media" 150 "ssave$trial"
        "$ALBUM" --library "$SLIB" save --json --album "Trial $trial" "$media"/*.jpg >"$WORK/ssave.out" 2>/dev/null &
        pid=$!
        kill_at_random "$pid" 4000
        sed -n 's/.*"asset":"\([^"]*\)".*/\1/p' "$WORK/ssave.out" >"$WORK/ssave.acknowledged"
        acknowledged=$(wc -l <"$WORK/ssave.acknowledged")
        local ok=1
        # Every photo printed is in the album.
        "$ALBUM" --library "$SLIB" show --json "Trial $trial" >"$WORK/ssave.album" 2>/dev/null || echo '[]' >"$WORK/ssave.album"
        python3 - "$WORK/ssave.acknowledged" "$WORK/ssave.album" <<'PY' || ok=0
import json, sys
printed = open(sys.argv[1]).read().split()
album = {a["id"] for a in json.load(open(sys.argv[2]))}
missing = [i for i in printed if i not in album]
for i in missing[:5]:
    print(f"  FAIL {i} was printed as saved but is not in the album")
sys.exit(1 if missing else 0)
PY
        # No row without its object: only objects no row names may be wrong before gc.
        problems=$("$ALBUM" --library "$SLIB" verify --json 2>/dev/null |
            python3 -c 'import json,sys; print("\n".join(p for p in json.load(sys.stdin)["problems"] if not p.startswith("stray object")))')
        [ -z "$problems" ] || { fail "ssave trial $trial: $(head -3 <<<"$problems" | tr '\n' ' ')"; ok=0; }
        # Once the killed saver's session is gone, gc takes exactly what it left.
        for _ in $(seq 100); do
            [ "$(psql "$SLIB" -qAtc "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()")" = 0 ] && break
            sleep 0.1
        done
        "$ALBUM" --library "$SLIB" gc >/dev/null 2>&1 || { fail "ssave trial $trial: gc failed"; ok=0; }
        verify_ok "$SLIB" || ok=0
        count=$(psql "$SLIB" -qAtc "SELECT count(*) FROM upload_intent")
        [ "$count" = 0 ] || { fail "ssave trial $trial: $count upload records left after gc"; ok=0; }
        # Again: the 150 photos once each.
        if ! "$ALBUM" --library "$SLIB" save -q --album "Trial $trial" "$media"/*.jpg >/dev/null 2>"$WORK/ssave.rerun"; then
            fail "ssave trial $trial: the save run again failed: $(head -c 300 "$WORK/ssave.rerun")"
            ok=0
        fi
        count=$("$ALBUM" --library "$SLIB" show --json "Trial $trial" 2>/dev/null | python3 -c 'import json,sys; a=json.load(sys.stdin); print(len({x["sha256"] for x in a}) if len(a) == len({x["sha256"] for x in a}) else -1)')
        [ "$count" = 150 ] || { fail "ssave trial $trial: the album holds $count distinct photos (-1: one twice), not 150"; ok=0; }
        verify_ok "$SLIB" || ok=0
        if [ "$ok" = 1 ]; then
            echo "  trial $trial: killed after ${KILLED_AFTER} with $acknowledged of 150 printed; gc and the rerun left 150"
            rm -rf "$media"
        else
            failures=$((failures + 1))
        fi
    done
    summary ssave "$trials" "$failures" "kill -9 of save of 150 photos (batches overlapping): every printed photo in its album with its object, gc takes the rest, the rerun completes"
}

# shostile: a writer forging deletion times and object names; the owner's gc keeps every photo.
scenario_shostile() {
    local failures=0 db writer url ids out before gone
    echo "== shostile"
    shared_up || { skip shostile "the shared-library servers cannot start: $(tail -c 300 "$WORK/shared-up.err")"; return; }
    shared_library shostile || { fail "shostile: could not set up the library"; summary shostile 1 1; return; }
    db=${SLIB##*/}
    "$ALBUM" --library "$SLIB" init --create-roles -q >/dev/null 2>&1 &&
        psql "$SLIB" -qAtc "CREATE ROLE ${db}_mallory LOGIN PASSWORD '$PGPASSWORD' IN ROLE ${db}_writer" >/dev/null ||
        { fail "shostile: could not make a writer"; summary shostile 1 1; return; }
    writer="postgres://${db}_mallory@${SLIB#*@}"
    mapfile -t ids < <(head -10 "$WORK/shostile.ids")
    before=$(date +%s)
    # What the writer tries, each statement on its own.
    psql "$writer" -qAtc "UPDATE asset SET deleted_at = 1 WHERE id IN ($(printf "'%s'," "${ids[@]}" | sed 's/,$//'))" >/dev/null 2>&1
    psql "$writer" -qAtc "UPDATE album SET deleted_at = 1" >/dev/null 2>&1
    for statement in \
        "UPDATE asset SET sha256 = repeat('0', 64) WHERE id = '$(sed -n 20p "$WORK/shostile.ids")'" \
        "UPDATE asset SET saved_role = 'nobody', byte_size = 1" \
        "INSERT INTO asset (id, sha256, kind, format, byte_size, added_at) VALUES ('planted', '../x', 'photo', 'jpeg', 1, 0)"; do
        if psql "$writer" -qAtc "$statement" >/dev/null 2>&1; then
            fail "shostile: the server let a writer run: $statement"
            failures=$((failures + 1))
        fi
    done
    out=$(psql "$SLIB" -qAtc "SELECT count(*) FROM asset WHERE deleted_at IS NOT NULL AND deleted_at < $before - 60")
    [ "$out" = 0 ] || { fail "shostile: $out deletion times forged by the writer were kept"; failures=$((failures + 1)); }
    # The owner's routine gc: nothing goes, every photo is in its album or in recently deleted.
    out=$("$ALBUM" --library "$SLIB" gc 2>&1) || { fail "shostile: gc failed: $out"; failures=$((failures + 1)); }
    gone=$(psql "$SLIB" -qAtc "SELECT 40 - count(*) FROM asset")
    [ "$gone" = 0 ] || { fail "shostile: gc removed $gone photos the writer dated back"; failures=$((failures + 1)); }
    "$ALBUM" --library "$SLIB" restore -q "${ids[@]}" >/dev/null 2>&1 || { fail "shostile: restore failed"; failures=$((failures + 1)); }
    psql "$SLIB" -qAtc "UPDATE album SET deleted_at = NULL" >/dev/null
    shared_check shostile || failures=$((failures + 1))
    verify_ok "$SLIB" || failures=$((failures + 1))
    # A row naming its original by a path back into the library's own originals (as an older
    # AlbumKit or a restored dump could hold), expired in recently deleted: gc removes the row and
    # never the photo the path leads to.
    local sha
    sha=$(psql "$SLIB" -qAtc "SELECT sha256 FROM asset ORDER BY id LIMIT 1")
    psql "$SLIB" -qAt >/dev/null 2>&1 <<SQL
ALTER TABLE asset DROP CONSTRAINT IF EXISTS asset_sha256_form;
ALTER TABLE asset DISABLE TRIGGER USER;
INSERT INTO asset (id, sha256, kind, format, byte_size, added_at, deleted_at)
VALUES ('forged', '../$db/originals/${sha:0:2}/$sha', 'photo', 'jpeg', 1, 0, 1);
ALTER TABLE asset ENABLE TRIGGER USER;
SQL
    out=$("$ALBUM" --library "$SLIB" gc 2>&1) || { fail "shostile: gc stopped at the damaged row: $out"; failures=$((failures + 1)); }
    [ "$(psql "$SLIB" -qAtc "SELECT count(*) FROM asset WHERE id = 'forged'")" = 0 ] ||
        { fail "shostile: the expired damaged row was kept"; failures=$((failures + 1)); }
    verify_ok "$SLIB" || { fail "shostile: gc followed the damaged row's path"; failures=$((failures + 1)); }
    # An endpoint with a secret in it: refused, never printed, never recorded.
    out=$("$ALBUM" --library "$SLIB" config --endpoint "${ALBUMKIT_S3_ENDPOINT/:\/\//://key:hostile-secret@}" 2>&1) &&
        { fail "shostile: config took an endpoint with a secret"; failures=$((failures + 1)); }
    grep -q hostile-secret <<<"$out$(psql "$SLIB" -qAtc "SELECT value FROM albumkit_setting")$("$ALBUM" --library "$SLIB" config 2>&1)" &&
        { fail "shostile: the secret was printed or recorded"; failures=$((failures + 1)); }
    summary shostile 1 "$failures" "a writer's hand-made deletion times, object names, who-saved and a planted path: the owner's gc keeps every photo"
}

# srestart: PostgreSQL restarted at a random moment of a 200-photo save.
scenario_srestart() {
    local trials=0 failures=0 trial pid db media delay printed count status
    echo "== srestart"
    shared_up || { skip srestart "the shared-library servers cannot start: $(tail -c 300 "$WORK/shared-up.err")"; return; }
    for ((trial = 1; trial <= SHARED_TRIALS; trial++)); do
        trials=$((trials + 1))
        db="rel_srestart_$(date +%s%N | tail -c 9)"
        psql "$ALBUMKIT_LIBRARY" -qAtc "CREATE DATABASE $db" >/dev/null &&
            "$ALBUM" --library "${ALBUMKIT_LIBRARY%/*}/$db" init -q --endpoint "$ALBUMKIT_S3_ENDPOINT" \
                --bucket "$ALBUMKIT_S3_BUCKET" --prefix "$db/" ||
            { fail "srestart: could not set up the library"; failures=$((failures + 1)); continue; }
        SLIB="${ALBUMKIT_LIBRARY%/*}/$db"
        media=$WORK/srestart-media-$trial
        make_jpegs "$media" 200 "srestart$trial"
        "$ALBUM" --library "$SLIB" save --json --album Restart "$media"/*.jpg >"$WORK/srestart.out" 2>"$WORK/srestart.err" &
        pid=$!
        # Once the saver has opened the library (its session is there): a server that is down when a
        # command starts fails it at once (libraryNotFound, nothing saved), by design.
        for _ in $(seq 300); do
            [ "$(psql "$SLIB" -qAtc "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()" 2>/dev/null)" != 0 ] && break
            sleep 0.02
        done
        delay=$((RANDOM % 4000))
        sleep "$(printf '%d.%03d' $((delay / 1000)) $((delay % 1000)))"
        bash "$ROOT/Scripts/shared-library.sh" stop-db 2>/dev/null
        sleep 2
        bash "$ROOT/Scripts/shared-library.sh" start-db 2>/dev/null
        wait "$pid"
        status=$?
        printed=$(grep -c '"asset"' "$WORK/srestart.out")
        count=$(psql "$SLIB" -qAtc "SELECT count(*) FROM album_asset")
        local ok=1
        [ "$status" = 0 ] && [ "$printed" = 200 ] && [ "$count" = 200 ] ||
            { fail "srestart trial $trial (restart after $delay ms): exit $status, $printed printed, $count in the album: $(grep -v '"asset"' "$WORK/srestart.out" | head -2) $(head -c 300 "$WORK/srestart.err")"; ok=0; }
        [ "$(psql "$SLIB" -qAtc "SELECT count(*) FROM upload_intent")" = 0 ] || { fail "srestart trial $trial: upload records left"; ok=0; }
        verify_ok "$SLIB" || ok=0
        if [ "$ok" = 1 ]; then
            echo "  trial $trial: PostgreSQL stopped after $delay ms; all 200 saved"
            rm -rf "$media"
        else
            failures=$((failures + 1))
        fi
    done
    summary srestart "$trials" "$failures" "PostgreSQL stopped at a random moment of a 200-photo save and started 2 s later: the save finishes, every photo once"
}

# sforgedpreview: a shared library's kept thumbnails are objects anyone with the store's keys may
# write: never believed unless they decode within their size, and gc deletes nothing it did not make.
scenario_sforgedpreview() {
    local failures=0 db base shas ids i key out forged
    echo "== sforgedpreview"
    shared_up || { skip sforgedpreview "the shared-library servers cannot start: $(tail -c 300 "$WORK/shared-up.err")"; return; }
    command -v curl >/dev/null && python3 -c 'import PIL' 2>/dev/null ||
        { skip sforgedpreview "curl and python3's PIL are needed to forge objects"; return; }
    shared_library sforgedpreview || { fail "sforgedpreview: could not set up the library"; summary sforgedpreview 1 1; return; }
    db=${SLIB##*/}
    base="$ALBUMKIT_S3_ENDPOINT/$ALBUMKIT_S3_BUCKET/$db"
    s3() { curl -sf --aws-sigv4 "aws:amz:us-east-1:s3" --user "$AWS_ACCESS_KEY_ID:$AWS_SECRET_ACCESS_KEY" "$@"; }
    # s3_put KEY FILE: the store wants the body's SHA-256 signed (curl 7.88 does not send it).
    s3_put() { s3 -o /dev/null -X PUT -H "x-amz-content-sha256: $(sha256sum "$2" | cut -d' ' -f1)" --data-binary "@$2" "$base/$1"; }
    out=$("$ALBUM" --library "$SLIB" previews 2>&1) || { fail "sforgedpreview: previews: $out"; failures=$((failures + 1)); }
    grep -q "^made 120, reused 0, failed 0" <<<"$out" || { fail "sforgedpreview: first previews: $out"; failures=$((failures + 1)); }
    mapfile -t shas < <(psql "$SLIB" -qAtc "SELECT sha256 FROM asset ORDER BY sha256")
    mapfile -t ids < <(psql "$SLIB" -qAtc "SELECT id FROM asset ORDER BY sha256")
    local dir=$WORK/sforgedpreview
    mkdir -p "$dir"
    # Four forgeries of the 256-pixel thumbnails of the first four photos.
    s3 -o "$dir/kept.jpg" "$base/derivatives/256/${shas[0]:0:2}/${shas[0]}.jpg" || { fail "sforgedpreview: no kept thumbnail"; failures=$((failures + 1)); }
    head -c 100 "$dir/kept.jpg" >"$dir/forged-0"
    printf 'not a picture' >"$dir/forged-1"
    python3 -c 'import sys; from PIL import Image; Image.new("RGB", (200, 150), "red").save(sys.argv[1], "PNG")' "$dir/forged-2"
    python3 -c 'import sys; from PIL import Image; Image.new("RGB", (900, 600), "blue").save(sys.argv[1], "JPEG")' "$dir/forged-3"
    for i in 0 1 2 3; do
        s3_put "derivatives/256/${shas[$i]:0:2}/${shas[$i]}.jpg" "$dir/forged-$i" ||
            { fail "sforgedpreview: could not forge ${shas[$i]}"; failures=$((failures + 1)); }
    done
    # Objects AlbumKit never makes, under its prefix: gc must leave every one.
    local strangers=(
        "derivatives/256/zz/not-a-digest.jpg" "derivatives/notes.txt" "derivatives/999/${shas[0]:0:2}/${shas[0]}.jpg"
        "derivatives/256/ab/${shas[0]}.jpg" "derivatives/256/${shas[0]:0:2}/${shas[0]}.png" "beside-derivatives.txt"
    )
    printf 'x' >"$dir/stranger"
    for key in "${strangers[@]}"; do
        s3_put "$key" "$dir/stranger" || { fail "sforgedpreview: could not put $key"; failures=$((failures + 1)); }
    done
    for i in 0 1 2 3; do
        rm -f "$dir/thumb-$i.jpg"
        out=$("$ALBUM" --library "$SLIB" thumbnail "${ids[$i]}" -o "$dir/thumb-$i.jpg" 2>&1) ||
            { fail "sforgedpreview: thumbnail of forgery $i: $out"; failures=$((failures + 1)); continue; }
        forged=$(python3 -c 'import sys; from PIL import Image; im = Image.open(sys.argv[1]); im.load(); print(im.format, max(im.size))' "$dir/thumb-$i.jpg" 2>&1)
        [[ "$forged" =~ ^JPEG\ ([0-9]+)$ ]] && [ "${BASH_REMATCH[1]}" -le 256 ] && ! cmp -s "$dir/thumb-$i.jpg" "$dir/forged-$i" ||
            { fail "sforgedpreview: forgery $i was served ($forged)"; failures=$((failures + 1)); }
        s3 -o "$dir/stored-$i" "$base/derivatives/256/${shas[$i]:0:2}/${shas[$i]}.jpg" && cmp -s "$dir/stored-$i" "$dir/thumb-$i.jpg" ||
            { fail "sforgedpreview: forgery $i was not replaced by the thumbnail made again"; failures=$((failures + 1)); }
    done
    out=$("$ALBUM" --library "$SLIB" previews 2>&1)
    grep -q "^made 0, reused 120, failed 0" <<<"$out" || { fail "sforgedpreview: previews after the forgeries: $out"; failures=$((failures + 1)); }
    # Five photos removed for good: gc takes their 15 thumbnails and nothing else.
    "$ALBUM" --library "$SLIB" delete-asset -q "${ids[@]:4:5}" >/dev/null 2>&1 &&
        "$ALBUM" --library "$SLIB" purge -q "${ids[@]:4:5}" >/dev/null 2>&1 || { fail "sforgedpreview: delete or purge failed"; failures=$((failures + 1)); }
    out=$("$ALBUM" --library "$SLIB" gc --json 2>&1)
    grep -q '"removedThumbnails":15' <<<"$out" || { fail "sforgedpreview: gc: $out"; failures=$((failures + 1)); }
    for key in "${strangers[@]}"; do
        s3 -o /dev/null "$base/$key" || { fail "sforgedpreview: gc removed $key, which AlbumKit never makes"; failures=$((failures + 1)); }
    done
    for i in 0 1 2 3; do
        s3 -o /dev/null "$base/derivatives/256/${shas[$i]:0:2}/${shas[$i]}.jpg" || { fail "sforgedpreview: gc removed a live thumbnail"; failures=$((failures + 1)); }
    done
    verify_ok "$SLIB" || failures=$((failures + 1))
    summary sforgedpreview 1 "$failures" "kept thumbnails in the store cut short, text, a PNG, too large: made again and replaced, never served; gc takes those of purged photos only"
}
