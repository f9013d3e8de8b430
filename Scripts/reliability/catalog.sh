# Catalog-index scenarios of Scripts/reliability.sh (issue 27), sourced by it. The journal
# (journal/library.journal) is the library; catalog.sqlite is an index derived from it. A missing,
# damaged, foreign or sqlite3-written index is rebuilt and the command goes on (one stderr note, the
# old file kept under damaged/); an older copy catches up silently. Each scenario ends with: every
# acknowledged save is present with its SHA-256, nothing in originals/ was deleted, verify passes.
#
#   corrupt     the index overwritten with garbage, a text header, or cut to half, 1000 or 0 bytes.
#   reset       catalog.sqlite* deleted.
#   sqlite3     the sqlite3 shell reading and writing catalog.sqlite at random moments while 3
#               processes save batches: no save fails, nothing acknowledged is lost or altered.
#   oldcatalog  an older copy of the index restored (an album renamed since): it catches up, no note.
#   garbled     20 random 16-byte overwrites of a 300-asset index; garbled1: one inside a stored path.
#   powerloss   the disk as a power loss leaves it while a save records (paused before-record).
#   ackkill     kill -9 after a save was acknowledged and before its index transaction committed.
#   journal     a torn journal tail, a garbled record in the middle, the journal removed.
#   rebuildkill kill -9 while a 2000-asset index is rebuilt (missing, garbled, other boot).
#   convert     a previous-release library (v2 catalog + saves.jsonl) converted; kill -9 mid-way.
#   repairrace  `album repair` in a loop while 3 processes save: no duplicate, no loss, no adoption.

# race8 (8 processes saving into one new album: exactly one album) is the `race` scenario.
scenario_race8() { scenario_race; }

REBUILT_NOTE="album: note: The library's catalog was rebuilt from its journal"

# make_small_jpegs DIR COUNT PREFIX: COUNT distinct small JPEGs (Examples/harbour.jpg with a comment
# of their own) in DIR, named as make_jpegs names them; written by python3, for the scenarios that
# need thousands.
make_small_jpegs() {
    mkdir -p "$1"
    python3 - "$ROOT/Examples/harbour.jpg" "$@" <<'PY'
import os, sys
base, folder, count, prefix = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
body = open(base, "rb").read()[2:]
salt = os.urandom(8).hex()
for i in range(count):
    tag = ("%s %d %s" % (prefix, i, salt)).encode()
    data = b"\xff\xd8\xff\xfe" + (len(tag) + 2).to_bytes(2, "big") + tag + body
    open(os.path.join(folder, "%s_%04d.jpg" % (prefix, i)), "wb").write(data)
PY
}

# rebuilt_notes FILE: how many rebuild notes FILE holds.
rebuilt_notes() { grep -c "^$REBUILT_NOTE" "$1" 2>/dev/null; }

# kept_as_damaged LIB SHA256: a file under LIB/damaged/ has these bytes (the index set aside).
kept_as_damaged() {
    local lib=$1 sha=$2
    [ -d "$lib/damaged" ] && find "$lib/damaged" -type f -name 'catalog*.sqlite' -exec sha256sum {} + |
        cut -d' ' -f1 | grep -qx "$sha"
}

# set_aside_count LIB: how many index files are kept under LIB/damaged/.
set_aside_count() { find "$1/damaged" -type f -name 'catalog*.sqlite' 2>/dev/null | wc -l; }

# album_titles LIB: the library's album titles, one a line, sorted.
album_titles() {
    "$ALBUM" albums --json --library "$1" 2>/dev/null | grep -o '"title":"[^"]*"' | cut -d'"' -f4 | sort
}

# journal_records LIB: "OP ID PATH SHA256" of every record of the journal whose CRC matches (id: the
# asset's or album's), in order; lines that fail their CRC as "DAMAGED OFFSET".
journal_records() {
    python3 - "$1/journal/library.journal" <<'PY'
import json, sys, zlib
data = open(sys.argv[1], "rb").read()
offset = data.index(b"\n") + 1
while offset < len(data):
    end = data.find(b"\n", offset)
    if end < 0:
        break
    line = data[offset:end]
    crc, _, body = line.partition(b" ")
    try:
        ok = int(crc, 16) == zlib.crc32(body)
        record = json.loads(body) if ok else None
    except ValueError:
        ok = False
    if ok:
        print(record.get("op"), record.get("id", "-"), record.get("path", "-"), record.get("sha256", "-"))
    else:
        print("DAMAGED", offset)
    offset = end + 1
PY
}

# ---------------------------------------------------------------------------------------------
# corrupt: the index overwritten with garbage or cut short: the next command rebuilds it from the
# journal and goes on (one note), the damaged file is kept byte for byte under damaged/.
scenario_corrupt() {
    echo "== corrupt"
    local failures=0 trials=0 damage lib catalog damaged_sha out status ok notes
    make_jpegs "$WORK/cor-media" 4 cor
    for damage in garbage garbage-header half first-kb empty; do
        trials=$((trials + 1)) ok=1
        lib=$WORK/cor/$damage.albumlibrary
        mkdir -p "$WORK/cor"
        save_batch "$lib" Kept "$WORK/cor/$damage.acks" "$WORK/cor-media"/cor_000{0,1,2}.jpg
        originals_list "$lib" >"$WORK/cor/$damage.before"
        catalog=$lib/catalog.sqlite
        local size
        size=$(stat -c %s "$catalog")
        case "$damage" in
            garbage) head -c "$size" /dev/urandom >"$catalog" ;;
            garbage-header) printf 'this is not a database, just text' | dd of="$catalog" conv=notrunc status=none ;;
            half) truncate -s $((size / 2)) "$catalog" ;;
            first-kb) truncate -s 1000 "$catalog" ;;
            empty) truncate -s 0 "$catalog" ;;
        esac
        damaged_sha=$(sha256sum <"$catalog" | cut -d' ' -f1)
        # The first command rebuilds and goes on; the next ones find a whole index (no note).
        "$ALBUM" save --json --album Kept --library "$lib" "$WORK/cor-media/cor_0003.jpg" \
            >>"$WORK/cor/$damage.acks" 2>"$WORK/cor/$damage.err"
        status=$?
        notes=$(rebuilt_notes "$WORK/cor/$damage.err")
        [ "$status" = 0 ] || { fail "corrupt $damage: save exit $status: $(head -2 "$WORK/cor/$damage.err" | tr '\n' ' ')"; ok=0; }
        [ "$notes" = 1 ] || { fail "corrupt $damage: $notes rebuild notes from the save: $(head -2 "$WORK/cor/$damage.err" | tr '\n' ' ')"; ok=0; }
        for command in albums verify; do
            out=$("$ALBUM" "$command" --library "$lib" 2>&1)
            status=$?
            [ "$status" = 0 ] || { fail "corrupt $damage: $command exit $status: $(head -2 <<<"$out" | tr '\n' ' ')"; ok=0; }
            grep -q "note:" <<<"$out" && { fail "corrupt $damage: $command rebuilt again: $(grep note: <<<"$out")"; ok=0; }
        done
        if [ "$damage" = empty ]; then
            # Nothing to keep of an empty file.
            [ "$(set_aside_count "$lib")" = 0 ] || { fail "corrupt $damage: an empty index was kept under damaged/"; ok=0; }
        else
            kept_as_damaged "$lib" "$damaged_sha" || { fail "corrupt $damage: the damaged index is not kept byte for byte under damaged/"; ok=0; }
        fi
        check_acknowledged "$lib" Kept "$WORK/cor/$damage.acks" || ok=0
        kept_originals "$WORK/cor/$damage.before" "$lib" || ok=0
        echo "  $damage: $([ "$ok" = 1 ] && echo "rebuilt, the command went on" || echo FAILED)"
        [ "$ok" = 1 ] || failures=$((failures + 1))
    done
    summary corrupt "$trials" "$failures" "garbage, text header, cut to half / 1000 / 0 bytes: rebuilt once, the command went on, the old file kept"
}

# ---------------------------------------------------------------------------------------------
# reset: catalog.sqlite* deleted; the next save rebuilds the index and goes on.
scenario_reset() {
    echo "== reset: $DAMAGE_TRIALS trials"
    local failures=0 trial dir lib bad status
    make_jpegs "$WORK/reset-media" 13 reset
    for ((trial = 0; trial < DAMAGE_TRIALS; trial++)); do
        dir=$WORK/reset/$trial lib=$WORK/reset/$trial/lib.albumlibrary bad=0
        mkdir -p "$dir"
        save_batch "$lib" Keep "$dir/acks" "$WORK/reset-media"/reset_000*.jpg "$WORK/reset-media"/reset_001[01].jpg
        originals_list "$lib" >"$dir/before"
        rm -f "$lib"/catalog.sqlite*
        "$ALBUM" save --json --album Keep --library "$lib" "$WORK/reset-media/reset_0012.jpg" >>"$dir/acks" 2>"$dir/err"
        status=$?
        [ "$status" = 0 ] || { fail "reset trial $trial: save exit $status: $(head -2 "$dir/err" | tr '\n' ' ')"; bad=1; }
        grep -q "^$REBUILT_NOTE (it was missing)" "$dir/err" ||
            { fail "reset trial $trial: no 'rebuilt (it was missing)' note: $(head -2 "$dir/err" | tr '\n' ' ')"; bad=1; }
        [ "$(set_aside_count "$lib")" = 0 ] || { fail "reset trial $trial: something was put under damaged/"; bad=1; }
        "$ALBUM" albums --library "$lib" >/dev/null 2>"$dir/err2" || { fail "reset trial $trial: albums failed"; bad=1; }
        [ -s "$dir/err2" ] && { fail "reset trial $trial: albums said: $(head -1 "$dir/err2")"; bad=1; }
        [ "$(grep -c '"asset"' "$dir/acks")" = 13 ] || { fail "reset trial $trial: $(grep -c '"asset"' "$dir/acks") of 13 saves acknowledged"; bad=1; }
        check_acknowledged "$lib" Keep "$dir/acks" || bad=1
        kept_originals "$dir/before" "$lib" || bad=1
        verify_ok "$lib" || bad=1
        [ "$bad" = 0 ] || failures=$((failures + 1))
    done
    summary reset "$DAMAGE_TRIALS" "$failures" "catalog.sqlite* deleted: the next save rebuilt it (one note) and went on"
}

# ---------------------------------------------------------------------------------------------
# sqlite3: the sqlite3 shell reads and writes catalog.sqlite at random moments (a write in two of
# three runs: changed titles, memberships, hashes and positions, VACUUM, WAL mode) while 3 processes
# save batches: no save ever fails, every acknowledged save is present (none altered), the index
# holds none of sqlite3's changes afterwards, verify passes.
SQLITE3_STATEMENTS=(
    "SELECT count(*) FROM asset"
    "SELECT title, count(*) FROM album JOIN album_asset ON album_id = id GROUP BY id"
    "SELECT * FROM index_state"
    "PRAGMA integrity_check"
    "UPDATE album SET title = 'Tampered'"
    "DELETE FROM album_asset WHERE asset_id IN (SELECT asset_id FROM album_asset ORDER BY random() LIMIT 3)"
    "INSERT INTO album (id, title, title_key, created_at) VALUES ('intruder', 'Intruder', 'Intruder', 1)"
    "UPDATE asset SET sha256 = 'tampered' WHERE id IN (SELECT id FROM asset ORDER BY random() LIMIT 1)"
    "UPDATE index_state SET value = value + 1 WHERE key = 'position'"
    "VACUUM"
    "PRAGMA journal_mode = WAL; UPDATE album SET title = 'Tampered'"
    "PRAGMA foreign_keys = OFF; DROP TABLE index_state"
)
scenario_sqlite3() {
    local trials=$DAMAGE_TRIALS batches=$([ "$MODE" = full ] && echo 150 || echo 40)
    echo "== sqlite3: $trials trials, 3 savers x $batches batches"
    if ! command -v sqlite3 >/dev/null; then
        skip sqlite3 "needs the sqlite3 command"
        return
    fi
    local failures=0 trial dir lib worker pids pid bad runs writes statuses rebuilt
    for ((trial = 0; trial < trials; trial++)); do
        dir=$WORK/sqlite3/$trial lib=$dir/lib.albumlibrary bad=0
        mkdir -p "$dir"
        save_batch "$lib" Busy "$dir/acks-start" "$ROOT/Examples/harbour.jpg"
        rm -f "$dir/stop"
        pids=()
        for ((worker = 0; worker < 3; worker++)); do
            make_jpegs "$dir/w$worker" $((batches * 5)) "sq$trial-w$worker"
            (
                files=("$dir/w$worker"/*.jpg) status=0
                for ((b = 0; b < batches; b++)); do
                    count=$((RANDOM % 5 + 1))
                    "$ALBUM" save --json --album Busy --library "$lib" "${files[@]:$((b * 5)):count}" \
                        >>"$dir/acks-w$worker" 2>>"$dir/err-w$worker" || { status=1; echo "batch $b failed" >>"$dir/err-w$worker"; }
                done
                exit $status
            ) &
            pids+=($!)
        done
        # sqlite3 at random moments (0-20 ms apart), reading and writing.
        (
            runs=0 writes=0
            while [ ! -e "$dir/stop" ]; do
                sleep "0.$(printf '%03d' $((RANDOM % 20)))"
                statement=${SQLITE3_STATEMENTS[$((RANDOM % ${#SQLITE3_STATEMENTS[@]}))]}
                sqlite3 -cmd '.timeout 5000' "$lib/catalog.sqlite" "$statement" >/dev/null 2>>"$dir/sqlite3.err" &&
                    case $statement in SELECT* | "PRAGMA integrity"*) ;; *) writes=$((writes + 1)) ;; esac
                runs=$((runs + 1))
            done
            echo "$runs $writes" >"$dir/sqlite3.count"
        ) &
        local shell=$!
        statuses=0
        for pid in "${pids[@]}"; do wait "$pid" || statuses=$((statuses + 1)); done
        touch "$dir/stop"
        wait "$shell"
        read -r runs writes <"$dir/sqlite3.count"
        rebuilt=$(cat "$dir"/err-w* | grep -c "^$REBUILT_NOTE")
        [ "$statuses" = 0 ] || { fail "sqlite3 trial $trial: $statuses savers had a failed save: $(cat "$dir"/err-w* | grep -v note: | head -3 | tr '\n' ' ')"; bad=1; }
        cat "$dir"/acks-* >"$dir/acks"
        grep -q '"error"' "$dir/acks" && { fail "sqlite3 trial $trial: error lines: $(grep '"error"' "$dir/acks" | head -2)"; bad=1; }
        [ "$writes" -gt 0 ] || { fail "sqlite3 trial $trial: sqlite3 never wrote the index"; bad=1; }
        # The next command finds whatever sqlite3 left last; then the index is the journal's.
        "$ALBUM" albums --library "$lib" >/dev/null 2>&1 || { fail "sqlite3 trial $trial: albums failed after the run"; bad=1; }
        [ "$(album_titles "$lib" | tr '\n' ' ')" = "Busy " ] || { fail "sqlite3 trial $trial: the albums are [$(album_titles "$lib" | tr '\n' ' ')], not [Busy]"; bad=1; }
        check_acknowledged "$lib" Busy "$dir/acks" || bad=1
        verify_ok "$lib" || bad=1
        echo "  trial $trial: $(grep -c '"asset"' "$dir/acks") saves acknowledged, sqlite3 ran $runs times ($writes writes), $rebuilt rebuilds noted; sqlite3 errors: $(sort "$dir/sqlite3.err" 2>/dev/null | uniq -c | sort -rn | head -2 | tr -s ' ' | tr '\n' ';')"
        [ "$bad" = 0 ] || failures=$((failures + 1))
    done
    summary sqlite3 "$trials" "$failures" "sqlite3 reading and writing the index during 3 savers: no save failed, none lost, its changes undone"
}

# ---------------------------------------------------------------------------------------------
# oldcatalog: an older copy of the index (from before more saves and a rename) put back: it
# catches up with the journal, no note, nothing set aside.
scenario_oldcatalog() {
    echo "== oldcatalog: $DAMAGE_TRIALS trials"
    local failures=0 trial dir lib bad
    make_jpegs "$WORK/old-media" 16 old
    for ((trial = 0; trial < DAMAGE_TRIALS; trial++)); do
        dir=$WORK/old/$trial lib=$WORK/old/$trial/lib.albumlibrary bad=0
        mkdir -p "$dir/backup"
        save_batch "$lib" Keep "$dir/acks" "$WORK/old-media"/old_000*.jpg
        cp "$lib"/catalog.sqlite* "$dir/backup/"
        save_batch "$lib" Keep "$dir/acks" "$WORK/old-media"/old_001*.jpg
        "$ALBUM" rename Keep Kept --library "$lib" >/dev/null 2>&1 || { fail "oldcatalog trial $trial: rename failed"; bad=1; }
        save_batch "$lib" Kept "$dir/acks" "$ROOT/Examples/garden.png"
        rm -f "$lib"/catalog.sqlite*
        cp "$dir/backup"/* "$lib/"
        originals_list "$lib" >"$dir/before"
        "$ALBUM" albums --library "$lib" >"$dir/albums" 2>"$dir/err" || { fail "oldcatalog trial $trial: albums failed: $(head -1 "$dir/err")"; bad=1; }
        [ -s "$dir/err" ] && { fail "oldcatalog trial $trial: albums said: $(head -2 "$dir/err" | tr '\n' ' ')"; bad=1; }
        [ "$(album_titles "$lib" | tr '\n' ' ')" = "Kept " ] || { fail "oldcatalog trial $trial: the albums are [$(album_titles "$lib" | tr '\n' ' ')], not [Kept]"; bad=1; }
        [ "$(grep -c '"asset"' "$dir/acks")" = 17 ] || { fail "oldcatalog trial $trial: $(grep -c '"asset"' "$dir/acks") of 17 saves acknowledged"; bad=1; }
        [ "$(show_hashes "$lib" Kept | wc -l)" = 17 ] || { fail "oldcatalog trial $trial: Kept holds $(show_hashes "$lib" Kept | wc -l) assets, not 17"; bad=1; }
        check_acknowledged "$lib" Kept "$dir/acks" || bad=1
        [ "$(set_aside_count "$lib")" = 0 ] || { fail "oldcatalog trial $trial: the older index was set aside as damaged"; bad=1; }
        kept_originals "$dir/before" "$lib" || bad=1
        verify_ok "$lib" || bad=1
        [ "$bad" = 0 ] || failures=$((failures + 1))
    done
    summary oldcatalog "$DAMAGE_TRIALS" "$failures" "an older index restored (album renamed since): caught up, no note, the renamed album holds all 17"
}

# ---------------------------------------------------------------------------------------------
# garbled: random 16-byte overwrites of a 300-asset index; garbled1: one inside an asset's stored
# path (SQLite's own checks pass it; the page checksum does not). Rebuilt once, the old file kept,
# every save listed as it was saved.
# garbled_check LIB ACKS SHA LABEL: save, albums, show, verify work; exactly one rebuild in all; the
# garbled file (SHA) is under damaged/; every acknowledged save present.
garbled_check() {
    local lib=$1 acks=$2 sha=$3 label=$4 bad=0 notes=0 status noted=""
    "$ALBUM" save --json --album Big --library "$lib" "$ROOT/Examples/garden.png" >>"$acks" 2>"$lib.err"
    status=$?
    [ "$status" = 0 ] || { fail "$label: save exit $status: $(head -2 "$lib.err" | tr '\n' ' ')"; bad=1; }
    notes=$((notes + $(rebuilt_notes "$lib.err")))
    [ "$notes" = 0 ] || noted=save
    for command in albums "show Big" verify; do
        # shellcheck disable=SC2086 # the command is words
        "$ALBUM" $command --library "$lib" >/dev/null 2>"$lib.err" || { fail "$label: $command: $(head -2 "$lib.err" | tr '\n' ' ')"; bad=1; }
        [ "$(rebuilt_notes "$lib.err")" = 0 ] || noted="$noted $command"
        notes=$((notes + $(rebuilt_notes "$lib.err")))
    done
    [ "$notes" = 1 ] || { fail "$label: $notes rebuild notes (by: $noted), expected 1"; bad=1; }
    # A save that reads no damaged page writes into the index before a later read finds the
    # damage: the file then kept holds that save too (SHA "any": some index was set aside).
    if [ "$sha" = any ]; then
        [ "$(set_aside_count "$lib")" -ge 1 ] || { fail "$label: nothing was set aside under damaged/ (rebuilt by: $noted)"; bad=1; }
    else
        kept_as_damaged "$lib" "$sha" ||
            { fail "$label: the garbled index is not kept byte for byte under damaged/ ($(set_aside_count "$lib") set aside; rebuilt by: $noted)"; bad=1; }
    fi
    [ "$(show_hashes "$lib" Big | wc -l)" = 301 ] || { fail "$label: Big holds $(show_hashes "$lib" Big | wc -l) assets, not 301"; bad=1; }
    check_acknowledged "$lib" Big "$acks" || bad=1
    return $bad
}
scenario_garbled() {
    echo "== garbled: $GARBLE_TRIALS trials"
    local failures=0 value_failures=0 trial dir base lib size i bad sha name offset
    base=$WORK/garbled/base.albumlibrary
    mkdir -p "$WORK/garbled"
    make_small_jpegs "$WORK/garbled-media" 300 garbled
    save_batch "$base" Big "$WORK/garbled/acks" "$WORK/garbled-media"/*.jpg
    for ((trial = 0; trial < GARBLE_TRIALS; trial++)); do
        dir=$WORK/garbled/$trial lib=$dir/lib.albumlibrary bad=0
        mkdir -p "$dir"
        cp -r "$base" "$lib"
        cp "$WORK/garbled/acks" "$dir/acks"
        size=$(stat -c %s "$lib/catalog.sqlite")
        for ((i = 0; i < 20; i++)); do
            dd if=/dev/urandom of="$lib/catalog.sqlite" bs=1 count=16 seek=$(((RANDOM * 32768 + RANDOM) % (size - 16))) \
                conv=notrunc status=none
        done
        sha=$(sha256sum <"$lib/catalog.sqlite" | cut -d' ' -f1)
        originals_list "$lib" >"$dir/before"
        garbled_check "$lib" "$dir/acks" "$sha" "garbled trial $trial" || bad=1
        kept_originals "$dir/before" "$lib" || bad=1
        [ "$bad" = 0 ] || failures=$((failures + 1))

        # One 16-byte overwrite inside one asset's stored path (just before its original name in
        # the row): SQLite's structure checks see nothing; the page checksum does.
        lib=$dir/value.albumlibrary bad=0
        cp -r "$base" "$lib"
        cp "$WORK/garbled/acks" "$dir/acks-value"
        name=$(printf 'garbled_%04d.jpg' $(((RANDOM * 32768 + RANDOM) % 300)))
        offset=$(grep -obUaF "$name" "$lib/catalog.sqlite" | head -1 | cut -d: -f1)
        if [ -z "$offset" ]; then
            fail "garbled1 trial $trial: $name is not in the index file"
            bad=1
        else
            dd if=/dev/urandom of="$lib/catalog.sqlite" bs=1 count=16 seek=$((offset - 20)) conv=notrunc status=none
            garbled_check "$lib" "$dir/acks-value" any "garbled1 trial $trial" || bad=1
        fi
        [ "$bad" = 0 ] || value_failures=$((value_failures + 1))
    done
    summary garbled "$GARBLE_TRIALS" "$failures" "20 random 16-byte overwrites of a 300-asset index: rebuilt once, kept under damaged/, all saves there"
    summary garbled1 "$GARBLE_TRIALS" "$value_failures" "one 16-byte overwrite inside an asset's path: rebuilt once, kept, all saves there"
}

# pausing_album: prints a build of album that can pause mid-save (ALBUMKIT_PAUSE: $ALBUM when it
# is a debug build, else the debug build, built now); returns 1 when there is none.
pausing_album() {
    local saver=$ALBUM
    if ! grep -q ALBUMKIT_PAUSE_MARKER "$saver"; then
        swift build -c debug --product album >/dev/null 2>&1 && saver="$(swift build -c debug --show-bin-path)/album"
    fi
    grep -q ALBUMKIT_PAUSE_MARKER "$saver" || return 1
    echo "$saver"
}

# ---------------------------------------------------------------------------------------------
# powerloss: the disk as a power loss leaves it while a save records. A debug build pauses the
# saver (ALBUMKIT_PAUSE=before-record) once its files' data and names are flushed, before the
# journal record; the library copied then (owners/ and the .publishing list with it) is the disk
# after the power went. Given the journal as flushed once the save finished (two trials in
# three), the copy must hold every acknowledged save; without it, nothing of the batch: the dead
# saver's published files are removed at opening (its owner file is not locked in the copy).
# Every other trial opens the copy as after a reboot (ALBUMKIT_BOOT_SESSION): rebuilt silently.
scenario_powerloss() {
    local trials=$((PARTIAL_TRIALS + 2)) dir=$WORK/powerloss failures=0 trial lib lost pid bad count flushed reboot
    echo "== powerloss: $trials trials"
    local saver
    if ! saver=$(pausing_album); then
        fail "powerloss: no build of album that can pause mid-save (the debug build failed to build)"
        summary powerloss 1 1 "could not run"
        return
    fi
    local published=0
    make_jpegs "$dir/media" 12 powerloss
    for ((trial = 0; trial < trials; trial++)); do
        bad=0
        lib=$dir/lib$trial.albumlibrary lost=$dir/lost$trial.albumlibrary
        # Half the trials save into an existing library and album, half create both.
        if [ $((trial % 2)) = 1 ]; then
            "$ALBUM" save --album "Trip" --library "$lib" "$dir/media/powerloss_0000.jpg" >/dev/null 2>&1 ||
                { fail "powerloss trial $trial: the first save failed"; failures=$((failures + 1)); continue; }
        fi
        count=$((trial % 5 + 1))
        local files=()
        for ((i = 1; i <= count; i++)); do files+=("$dir/media/$(printf 'powerloss_%04d.jpg' $(((trial + i) % 11 + 1)))"); done
        rm -f "$dir/marker" "$dir/marker.done"
        ALBUMKIT_PAUSE=before-record ALBUMKIT_PAUSE_MARKER=$dir/marker \
            "$saver" save --json --album Trip --library "$lib" "${files[@]}" >"$dir/acks" 2>"$dir/err" &
        pid=$!
        for _ in $(seq 1000); do [ -e "$dir/marker" ] && break; sleep 0.01; done
        if [ ! -e "$dir/marker" ]; then
            fail "powerloss trial $trial: the saver never reached its journal record: $(head -c 300 "$dir/err")"
            kill -9 "$pid" 2>/dev/null
            failures=$((failures + 1))
            continue
        fi
        cp -a "$lib" "$lost"
        rm -f "$dir/marker"
        wait "$pid" || { fail "powerloss trial $trial: the save failed: $(head -c 300 "$dir/err")"; bad=1; }
        [ "$(grep -c '"asset"' "$dir/acks")" = "$count" ] || { fail "powerloss trial $trial: $(grep -c '"asset"' "$dir/acks") of $count acknowledged"; bad=1; }
        # The copy holds the saver's list of published files (proof the removal is tested).
        [ -n "$(cat "$lost"/owners/*.publishing 2>/dev/null)" ] && published=$((published + 1))
        flushed=$((trial % 3 != 2))
        reboot=$(((trial / 2) % 2))
        [ "$flushed" = 1 ] && cp "$lib/journal/library.journal" "$lost/journal/library.journal"
        local boot=()
        [ "$reboot" = 1 ] && boot=(env "ALBUMKIT_BOOT_SESSION=powerloss-$trial")
        if ! "${boot[@]}" "$ALBUM" albums --library "$lost" >/dev/null 2>"$dir/err"; then
            fail "powerloss trial $trial (journal flushed: $flushed): the library does not open: $(head -c 300 "$dir/err")"
            failures=$((failures + 1))
            continue
        fi
        [ "$reboot" = 1 ] && grep -q "note:" "$dir/err" && { fail "powerloss trial $trial: after a reboot: $(head -1 "$dir/err")"; bad=1; }
        verify_ok "$lost" || bad=1
        local expected
        if [ "$flushed" = 1 ]; then
            check_acknowledged "$lost" Trip "$dir/acks" || bad=1
            expected=$(($(sed -n 's/.*"asset":"\([^"]*\)".*/\1/p' "$dir/acks" | sort -u | wc -l) + trial % 2))
        else
            expected=$((trial % 2))
        fi
        # Exactly the saves the journal holds: with it, all of them; without it, none of the batch's
        # assets and no file of it left in originals/.
        [ "$(show_hashes "$lost" Trip | wc -l)" = "$expected" ] ||
            { fail "powerloss trial $trial (journal flushed: $flushed): $(show_hashes "$lost" Trip | wc -l) asset(s) in the album, expected $expected"; bad=1; }
        [ "$(originals_list "$lost" | wc -l)" = "$expected" ] ||
            { fail "powerloss trial $trial (journal flushed: $flushed): $(originals_list "$lost" | wc -l) file(s) in originals/, expected $expected"; bad=1; }
        [ "$bad" = 0 ] || failures=$((failures + 1))
    done
    [ "$published" -gt 0 ] || { fail "powerloss: no copy held a list of published files"; failures=$((failures + 1)); }
    summary powerloss "$trials" "$failures" "power lost before the journal record: every acknowledged save with the journal, nothing of the batch without it; $published copies held published files"
}

# ---------------------------------------------------------------------------------------------
# ackkill: a save is acknowledged at its journal's flush and its index transaction commits after.
# A debug build pauses the saver there (ALBUMKIT_PAUSE=after-acknowledge): its line is printed, the
# index not committed. Killed with -9 then (or, every third trial, in another process's save
# waiting for it), the next command shows every acknowledged photo from the journal, nothing else
# of the batch is lost or left over, the list of files being published removes nothing recorded,
# and verify passes. Lone saves and batches, into a new and an existing album.
scenario_ackkill() {
    local trials=$((PARTIAL_TRIALS + 2)) dir=$WORK/ackkill failures=0 trial lib pid bad count expected
    echo "== ackkill: $trials trials"
    local saver
    if ! saver=$(pausing_album); then
        fail "ackkill: no build of album that can pause mid-save (the debug build failed to build)"
        summary ackkill 1 1 "could not run"
        return
    fi
    make_jpegs "$dir/media" 12 ackkill
    for ((trial = 0; trial < trials; trial++)); do
        bad=0
        lib=$dir/lib$trial.albumlibrary
        if [ $((trial % 2)) = 1 ]; then
            "$ALBUM" save --album "Trip" --library "$lib" "$dir/media/ackkill_0000.jpg" >/dev/null 2>&1 ||
                { fail "ackkill trial $trial: the first save failed"; failures=$((failures + 1)); continue; }
        fi
        # One photo (a lone save, listed while staged) or a batch of 2 to 4.
        count=$(((trial / 2) % 4 + 1))
        local files=()
        for ((i = 1; i <= count; i++)); do files+=("$dir/media/$(printf 'ackkill_%04d.jpg' $(((trial + i) % 11 + 1)))"); done
        rm -f "$dir/marker" "$dir/marker.done"
        ALBUMKIT_PAUSE=after-acknowledge ALBUMKIT_PAUSE_MARKER=$dir/marker \
            "$saver" save --json --album Trip --library "$lib" "${files[@]}" >"$dir/acks" 2>"$dir/err" &
        pid=$!
        for _ in $(seq 1000); do [ -e "$dir/marker" ] && break; sleep 0.01; done
        if [ ! -e "$dir/marker" ]; then
            fail "ackkill trial $trial: the saver never paused after its acknowledgement: $(head -c 300 "$dir/err")"
            kill -9 "$pid" 2>/dev/null
            failures=$((failures + 1))
            continue
        fi
        # The pause holds the committing thread; the line is printed by another one, which a loaded
        # machine may not have run yet: the kill comes once a line is out (the point of the trial).
        for _ in $(seq 500); do grep -q '"asset"' "$dir/acks" && break; sleep 0.01; done
        # Every third trial another save starts meanwhile: it waits for the paused commit.
        local other=""
        if [ $((trial % 3)) = 2 ]; then
            "$ALBUM" save --json --album Trip --library "$lib" "$dir/media/ackkill_0011.jpg" >"$dir/other" 2>"$dir/other.err" &
            other=$!
            sleep 0.2
        fi
        kill -9 "$pid" 2>/dev/null
        wait "$pid" 2>/dev/null
        if [ -n "$other" ]; then
            wait "$other" || { fail "ackkill trial $trial: the save waiting for the killed one failed: $(head -c 300 "$dir/other.err")"; bad=1; }
            cat "$dir/other" >>"$dir/acks"
        fi
        # The acknowledged lines were out before the kill: the first chunk's, at least one.
        [ "$(grep -c '"asset"' "$dir/acks")" -ge 1 ] || { fail "ackkill trial $trial: nothing was printed within 5 s of the pause"; bad=1; }
        if ! "$ALBUM" albums --library "$lib" >/dev/null 2>"$dir/err"; then
            fail "ackkill trial $trial: the library does not open: $(head -c 300 "$dir/err")"
            failures=$((failures + 1))
            continue
        fi
        grep -q "note:" "$dir/err" && { fail "ackkill trial $trial: $(head -1 "$dir/err")"; bad=1; }
        check_acknowledged "$lib" Trip "$dir/acks" || bad=1
        verify_ok "$lib" || bad=1
        # No file left over: originals/ holds exactly the album's photos.
        expected=$(show_hashes "$lib" Trip | wc -l)
        [ "$(originals_list "$lib" | wc -l)" = "$expected" ] ||
            { fail "ackkill trial $trial: $(originals_list "$lib" | wc -l) file(s) in originals/ for $expected photo(s)"; bad=1; }
        [ "$bad" = 0 ] || failures=$((failures + 1))
    done
    summary ackkill "$trials" "$failures" "kill -9 after the acknowledgement, before the index commit (lone saves and batches, another save waiting every third trial): every acknowledged photo there, nothing left over"
}

# ---------------------------------------------------------------------------------------------
# journal: a torn tail is set aside by the next writer; a garbled record in the middle is named
# by verify (and verify --thorough) and its file adopted by repair into "Recovered"; a middle
# record rewritten in place with a valid CRC (an album's title) is found by verify (the journal is
# not the one the index was built from) and by verify --thorough, and repair rebuilds the index
# from the journal as it now is; the journal removed while the index is whole is written anew
# from the index (albums kept).
scenario_journal() {
    echo "== journal"
    local dir=$WORK/journal failures=0 trials=0 damage lib bad before after out size tail status
    make_jpegs "$dir/media" 14 jr
    for damage in torn badcrc middle rewritten removed; do
        trials=$((trials + 1)) bad=0
        lib=$dir/$damage.albumlibrary
        save_batch "$lib" Keep "$dir/$damage.keep" "$dir"/media/jr_000[0-5].jpg
        save_batch "$lib" Other "$dir/$damage.other" "$dir"/media/jr_000[6-9].jpg "$dir/media/jr_0000.jpg"
        before=$( (show_hashes "$lib" Keep; show_hashes "$lib" Other) | sort | md5sum)
        local journal=$lib/journal/library.journal
        size=$(stat -c %s "$journal")
        case $damage in
            torn | badcrc)
                # An append cut short (no line feed), or a whole last line whose CRC fails.
                if [ "$damage" = torn ]; then
                    tail='0badf00d {"op":"save","id":"torn-by-a-crash","path":"originals/'
                else
                    tail='deadbeef {"at":1,"id":"bad-crc","op":"createAlbum","title":"Never"}'$'\n'
                fi
                printf '%s' "$tail" >>"$journal"
                "$ALBUM" verify --library "$lib" >"$dir/$damage.verify" 2>&1 || { fail "journal ($damage): verify of a journal with a torn tail: $(head -2 "$dir/$damage.verify" | tr '\n' ' ')"; bad=1; }
                "$ALBUM" save --json --album Keep --library "$lib" "$dir/media/jr_0010.jpg" >>"$dir/$damage.keep" 2>"$dir/$damage.err" ||
                    { fail "journal ($damage): the next save failed: $(head -2 "$dir/$damage.err" | tr '\n' ' ')"; bad=1; }
                local kept
                kept=$(find "$lib/damaged" -name "journal-tail-at-$size" 2>/dev/null | head -1)
                if [ -z "$kept" ]; then
                    fail "journal ($damage): no damaged/*/journal-tail-at-$size"
                    bad=1
                elif [ "$(cat "$kept")" != "$(printf '%s' "$tail")" ]; then
                    fail "journal ($damage): $kept does not hold the torn bytes"
                    bad=1
                fi
                # Cut off: the journal's records end in the new save, no damaged one.
                journal_records "$lib" | grep -q DAMAGED && { fail "journal ($damage): the journal still holds a damaged line"; bad=1; }
                grep -qF "$(head -c 20 <<<"$tail")" "$journal" && { fail "journal ($damage): the torn bytes are still in the journal"; bad=1; }
                album_titles "$lib" | grep -qx Never && { fail "journal ($damage): the record failing its CRC was applied"; bad=1; }
                ;;
            middle)
                # One byte of the name in jr_0002's save record (a middle line) overwritten.
                local line_offset
                line_offset=$(grep -boa '"name":"jr_0002.jpg"' "$journal" | head -1 | cut -d: -f1)
                line_offset=$(head -c "$line_offset" "$journal" | tr -cd '\n' | wc -c)
                line_offset=$(head -n "$line_offset" "$journal" | wc -c)
                python3 -c 'import sys; p = sys.argv[1]; d = bytearray(open(p, "rb").read()); i = d.index(b"\"name\":\"jr_0002.jpg\""); d[i + 10] ^= 0x20; open(p, "wb").write(d)' "$journal"
                out=$("$ALBUM" verify --library "$lib" 2>&1) && { fail "journal ($damage): verify passed"; bad=1; }
                grep -q "damaged record at byte $line_offset, about the save of" <<<"$out" ||
                    { fail "journal ($damage): verify does not name the record at byte $line_offset: $(head -3 <<<"$out" | tr '\n' ' ')"; bad=1; }
                out=$("$ALBUM" verify --thorough --library "$lib" 2>&1) && { fail "journal ($damage): verify --thorough passed"; bad=1; }
                grep -q "damaged record at byte $line_offset, about the save of" <<<"$out" ||
                    { fail "journal ($damage): verify --thorough does not name the record at byte $line_offset: $(head -3 <<<"$out" | tr '\n' ' ')"; bad=1; }
                "$ALBUM" save --json --album Keep --library "$lib" "$dir/media/jr_0010.jpg" >>"$dir/$damage.keep" 2>"$dir/$damage.err" ||
                    { fail "journal ($damage): the next save failed: $(head -2 "$dir/$damage.err" | tr '\n' ' ')"; bad=1; }
                out=$("$ALBUM" repair --library "$lib" 2>&1) || { fail "journal ($damage): repair failed: $(head -3 <<<"$out" | tr '\n' ' ')"; bad=1; }
                # The file the damaged record named is adopted into "Recovered", with its bytes.
                local wanted
                wanted=$(sha256sum <"$dir/media/jr_0002.jpg" | cut -d' ' -f1)
                show_hashes "$lib" Recovered | cut -d' ' -f2 | grep -qx "$wanted" ||
                    { fail "journal ($damage): jr_0002.jpg is not in \"Recovered\": [$(show_hashes "$lib" Recovered | tr '\n' ' ')]"; bad=1; }
                # The other saves are where they were.
                grep -v '"file":"[^"]*jr_0002.jpg"' "$dir/$damage.keep" >"$dir/$damage.keep-others"
                check_acknowledged "$lib" Keep "$dir/$damage.keep-others" || bad=1
                check_acknowledged "$lib" Other "$dir/$damage.other" || bad=1
                # Afterwards verify may still name the damaged record (it stays in the journal), nothing else.
                out=$("$ALBUM" verify --library "$lib" 2>&1)
                if grep '^problem' <<<"$out" | grep -vq "damaged record at byte $line_offset"; then
                    fail "journal ($damage): after repair, verify: $(grep '^problem' <<<"$out" | grep -v "damaged record" | head -2 | tr '\n' ' ')"
                    bad=1
                fi
                ;;
            rewritten)
                # The album "Other" renamed "Otter" in its record, in place, with the record's CRC
                # made anew: every record reads, but not as the index read them.
                python3 -c '
import sys, zlib
p = sys.argv[1]
data = open(p, "rb").read()
lines = data.split(b"\n")
i = next(n for n, line in enumerate(lines) if b"\"op\":\"createAlbum\",\"title\":\"Other\"" in line)
body = lines[i][9:].replace(b"\"Other\"", b"\"Otter\"")
lines[i] = b"%08x " % zlib.crc32(body) + body
with open(p, "r+b") as f:
    f.write(b"\n".join(lines))
' "$journal"
                out=$("$ALBUM" verify --library "$lib" 2>&1) && { fail "journal ($damage): verify passed"; bad=1; }
                grep -q "is not the one the catalog was built from" <<<"$out" ||
                    { fail "journal ($damage): verify does not say the journal changed: $(head -3 <<<"$out" | tr '\n' ' ')"; bad=1; }
                out=$("$ALBUM" verify --thorough --library "$lib" 2>&1) && { fail "journal ($damage): verify --thorough passed"; bad=1; }
                grep -q "the catalog disagrees with the library's journal" <<<"$out" ||
                    { fail "journal ($damage): verify --thorough does not compare the album: $(head -3 <<<"$out" | tr '\n' ' ')"; bad=1; }
                out=$("$ALBUM" repair --library "$lib" 2>&1) || { fail "journal ($damage): repair failed: $(head -3 <<<"$out" | tr '\n' ' ')"; bad=1; }
                album_titles "$lib" | grep -qx Otter || { fail "journal ($damage): after repair, no album \"Otter\": $(album_titles "$lib" | tr '\n' ' ')"; bad=1; }
                check_acknowledged "$lib" Keep "$dir/$damage.keep" || bad=1
                verify_ok "$lib" || bad=1
                ;;
            removed)
                rm "$journal"
                out=$("$ALBUM" albums --library "$lib" 2>&1) || { fail "journal ($damage): albums failed: $(head -2 <<<"$out" | tr '\n' ' ')"; bad=1; }
                [ -s "$journal" ] || { fail "journal ($damage): no new journal"; bad=1; }
                # A whole index of this release is no previous-release library: not "converted", not moved aside.
                grep -q "converted to this release" <<<"$out" && { fail "journal ($damage): the index was taken for a previous release: $(grep note: <<<"$out" | head -1)"; bad=1; }
                [ -e "$lib/previous-release" ] && { fail "journal ($damage): files were moved to previous-release/: $(ls "$lib/previous-release" | tr '\n' ' ')"; bad=1; }
                after=$( (show_hashes "$lib" Keep; show_hashes "$lib" Other) | sort | md5sum)
                [ "$before" = "$after" ] || { fail "journal ($damage): the albums differ after the journal was written anew"; bad=1; }
                # And the new journal alone rebuilds them.
                rm -f "$lib"/catalog.sqlite*
                "$ALBUM" albums --library "$lib" >/dev/null 2>&1 || { fail "journal ($damage): albums failed after the index was lost too"; bad=1; }
                after=$( (show_hashes "$lib" Keep; show_hashes "$lib" Other) | sort | md5sum)
                [ "$before" = "$after" ] || { fail "journal ($damage): the albums rebuilt from the new journal differ"; bad=1; }
                ;;
        esac
        if [ "$damage" != middle ] && [ "$damage" != rewritten ]; then
            check_acknowledged "$lib" Keep "$dir/$damage.keep" || bad=1
            check_acknowledged "$lib" Other "$dir/$damage.other" || bad=1
            verify_ok "$lib" || bad=1
        fi
        echo "  $damage: $([ "$bad" = 0 ] && echo ok || echo FAILED)"
        [ "$bad" = 0 ] || failures=$((failures + 1))
    done
    summary journal "$trials" "$failures" "torn tail and bad last CRC set aside; a garbled middle record named, its file adopted; a record rewritten with a valid CRC found by verify, the index rebuilt; the journal written anew from the index"
}

# ---------------------------------------------------------------------------------------------
# rebuildkill: kill -9 a command while it rebuilds a 2000-asset index (missing, garbled, last
# written in another boot), at random moments; the next command works, every save is intact.
scenario_rebuildkill() {
    local trials=$([ "$MODE" = full ] && echo 60 || echo 6)
    echo "== rebuildkill: $trials trials"
    local dir=$WORK/rebuildkill base failures=0 trial lib bad pid cause delay start took spent
    base=$dir/base.albumlibrary
    make_small_jpegs "$dir/media" 2000 rk
    make_small_jpegs "$dir/more" "$trials" rkmore
    save_batch "$base" Many "$dir/acks" "$dir/media"/*.jpg
    [ "$(grep -c '"asset"' "$dir/acks")" = 2000 ] || { fail "rebuildkill: $(grep -c '"asset"' "$dir/acks") of 2000 saved"; summary rebuildkill 0 1; return; }
    # How long a rebuild takes here: the kills land within it.
    rm -f "$base"/catalog.sqlite*
    start=$(date +%s%N)
    "$ALBUM" albums --library "$base" >/dev/null 2>&1
    took=$((($(date +%s%N) - start) / 1000000))
    echo "  a rebuild of 2000 assets takes $took ms"
    for ((trial = 0; trial < trials; trial++)); do
        lib=$dir/lib$trial.albumlibrary bad=0
        cp -a "$base" "$lib"
        cp "$dir/acks" "$dir/acks$trial"
        local env=()
        case $((trial % 3)) in
            0) cause=missing; rm -f "$lib"/catalog.sqlite* ;;
            1) cause=garbled; dd if=/dev/urandom of="$lib/catalog.sqlite" bs=1 count=64 seek=5000 conv=notrunc status=none ;;
            2) cause=boot; env=(env "ALBUMKIT_BOOT_SESSION=rebuildkill-$trial") ;;
        esac
        delay=$(((RANDOM * 32768 + RANDOM) % (took + 20)))
        # Even trials kill a listing, odd ones a save (which may be past the rebuild).
        if ((trial % 2)); then
            "${env[@]}" "$ALBUM" save --json --album Many --library "$lib" "$dir/more/$(printf 'rkmore_%04d.jpg' "$trial")" \
                >>"$dir/acks$trial" 2>/dev/null &
        else
            "${env[@]}" "$ALBUM" albums --library "$lib" >/dev/null 2>&1 &
        fi
        pid=$!
        sleep "$(printf '%d.%03d' $((delay / 1000)) $((delay % 1000)))"
        kill -9 "$pid" 2>/dev/null
        wait "$pid" 2>/dev/null
        [ -s "$dir/acks$trial" ] && [ "$(tail -c 1 "$dir/acks$trial" | od -An -c | tr -d ' ')" != '\n' ] && echo >>"$dir/acks$trial"
        # The next command works (after a reboot, in the new boot), and a save after it.
        start=$(date +%s%N)
        "${env[@]}" "$ALBUM" albums --library "$lib" >/dev/null 2>"$dir/err" || { fail "rebuildkill trial $trial ($cause, killed after $delay ms): albums: $(head -2 "$dir/err" | tr '\n' ' ')"; bad=1; }
        spent=$((($(date +%s%N) - start) / 1000000))
        "${env[@]}" "$ALBUM" save --json --album Many --library "$lib" "$dir/more/$(printf 'rkmore_%04d.jpg' "$(((trial + 1) % trials))")" \
            >>"$dir/acks$trial" 2>"$dir/err" || { fail "rebuildkill trial $trial ($cause): the next save failed: $(head -2 "$dir/err" | tr '\n' ' ')"; bad=1; }
        check_acknowledged "$lib" Many "$dir/acks$trial" || bad=1
        verify_ok "$lib" || bad=1
        # Leftovers of the killed rebuild do not pile up (hidden index files beside the index).
        local hidden
        hidden=$(find "$lib" -maxdepth 2 -name '.*' -newer "$dir/acks" ! -name '.' 2>/dev/null | grep -v '/owners/' | wc -l)
        [ "$hidden" -le 1 ] || { fail "rebuildkill trial $trial ($cause): $hidden hidden files left: $(find "$lib" -maxdepth 2 -name '.*' -newer "$dir/acks" | head -3 | tr '\n' ' ')"; bad=1; }
        echo "  trial $trial: $cause, killed after $delay ms; the next command took $spent ms$([ "$bad" = 0 ] || echo ', FAILED')"
        [ "$bad" = 0 ] || failures=$((failures + 1))
        [ "$bad" = 0 ] && rm -rf "$lib"
    done
    summary rebuildkill "$trials" "$failures" "kill -9 during the rebuild of a 2000-asset index (${took} ms): the next command works, all saves intact"
}

# ---------------------------------------------------------------------------------------------
# convert: a library of the previous release (catalog.sqlite with the v2 schema, written by the
# sqlite3 shell, in WAL mode, and journal/saves.jsonl with matching records and real files),
# `album albums` killed with kill -9 at random moments of its conversion; afterwards every album,
# asset, membership and rename is intact and previous-release/ holds the old files.

# make_previous_release DIR: writes DIR/old.albumlibrary and DIR/expected (one "ALBUM_TITLE ASSET_ID
# SHA256" line per membership) and DIR/expected-albums ("ID TITLE" per album).
make_previous_release() {
    local dir=$1 lib=$1/old.albumlibrary
    mkdir -p "$lib/journal" "$lib/originals"
    # Small photos: every trial verifies (hashes) all of them.
    make_small_jpegs "$dir/media" 1002 conv
    python3 - "$dir" "$lib" <<'PY' >"$dir/catalog.sql"
import hashlib, json, os, shutil, sys, uuid
dir, lib = sys.argv[1], sys.argv[2]
def q(s):
    return "NULL" if s is None else "'" + str(s).replace("'", "''") + "'"
albums = {"Trips": str(uuid.uuid4()), "Family": str(uuid.uuid4()), "Empty": str(uuid.uuid4())}
gone = str(uuid.uuid4())
t0 = 1790000000.0
sql = ["PRAGMA journal_mode = WAL;", "PRAGMA application_id = 1095516747;", "BEGIN;",
"""CREATE TABLE asset (id TEXT PRIMARY KEY, state TEXT NOT NULL CHECK (state IN ('pending', 'ready')),
kind TEXT NOT NULL CHECK (kind IN ('photo', 'video')), format TEXT NOT NULL, path TEXT NOT NULL UNIQUE,
original_name TEXT, byte_size INTEGER NOT NULL CHECK (byte_size >= 0), sha256 TEXT NOT NULL,
added_at REAL NOT NULL, owner TEXT, metadata TEXT) STRICT;
CREATE INDEX asset_pending ON asset(owner) WHERE state = 'pending';
CREATE TABLE album (id TEXT PRIMARY KEY, title TEXT NOT NULL, title_key TEXT NOT NULL, created_at REAL NOT NULL) STRICT;
CREATE INDEX album_by_title ON album(title_key, created_at);
CREATE TABLE album_asset (album_id TEXT NOT NULL REFERENCES album(id) ON DELETE CASCADE,
asset_id TEXT NOT NULL REFERENCES asset(id) ON DELETE CASCADE, position INTEGER NOT NULL,
added_at REAL NOT NULL, PRIMARY KEY (album_id, asset_id)) STRICT, WITHOUT ROWID;
CREATE INDEX album_asset_order ON album_asset(album_id, position);
CREATE INDEX album_asset_asset ON album_asset(asset_id);
CREATE TABLE remembered_album (title_key TEXT PRIMARY KEY, album_id TEXT NOT NULL) STRICT;
CREATE INDEX asset_by_content ON asset(sha256, byte_size) WHERE state = 'ready';
CREATE TABLE library_state (key TEXT PRIMARY KEY, value INTEGER NOT NULL) STRICT;"""]
journal = []
for n, (title, id) in enumerate([("Trip 2024", albums["Trips"]), ("Family", albums["Family"]), ("Empty", albums["Empty"]), ("Gone", gone)]):
    journal.append({"album": id, "at": t0 + n, "op": "createAlbum", "title": title})
for title in ("Trips", "Family", "Empty"):
    created = t0 + ["Trips", "Family", "Empty"].index(title)
    sql.append(f"INSERT INTO album VALUES ({q(albums[title])}, {q(title)}, {q(title)}, {created});")
journal.append({"album": albums["Trips"], "op": "renameAlbum", "title": "Trips"})
journal.append({"album": gone, "op": "deleteAlbum"})
# The renamed album's old title still leads to it.
sql.append(f"INSERT INTO remembered_album VALUES ('Trip 2024', {q(albums['Trips'])});")
sql.append(f"INSERT INTO remembered_album VALUES ('Trips', {q(albums['Trips'])});")
sql.append(f"INSERT INTO remembered_album VALUES ('Family', {q(albums['Family'])});")
expected = []
positions = {"Trips": 0, "Family": 0}
for i in range(1002):
    source = os.path.join(dir, "media", "conv_%04d.jpg" % i)
    data = open(source, "rb").read()
    sha = hashlib.sha256(data).hexdigest()
    id = str(uuid.uuid4())
    rel = "originals/%02x/%s.jpg" % (i % 7, id)
    os.makedirs(os.path.join(lib, os.path.dirname(rel)), exist_ok=True)
    os.link(source, os.path.join(lib, rel))
    added = t0 + 100 + i
    # Trips: 0-599, Family: 400-949 and the two saves only the old journal holds (1000, 1001);
    # 950-999 are in no album.
    title = "Trips" if i < 600 else ("Family" if i < 950 or i >= 1000 else None)
    also = "Family" if 400 <= i < 600 else None
    record = {"added": added, "asset": id, "at": added, "batch": "b%d" % (i // 50), "name": "conv_%04d.jpg" % i,
              "of": 50 if i < 1000 else 2, "op": "save", "path": rel, "sha256": sha, "size": len(data), "pending": id}
    if title:
        record["album"], record["title"] = albums[title], title
    journal.append(record)
    if also:
        journal.append({"added": added, "album": albums[also], "asset": id, "at": added + 0.5, "op": "save",
                        "path": rel, "sha256": sha, "size": len(data), "title": also})
    if i < 1000:
        meta = json.dumps({"format": "jpeg", "height": 240, "kind": "photo", "width": 320})
        sql.append(f"INSERT INTO asset VALUES ({q(id)}, 'ready', 'photo', 'jpeg', {q(rel)}, {q('conv_%04d.jpg' % i)}, "
                   f"{len(data)}, {q(sha)}, {added}, NULL, {q(meta)});")
        for t, at in ((title, added), (also, added + 0.5)):
            if t:
                sql.append(f"INSERT INTO album_asset VALUES ({q(albums[t])}, {q(id)}, {positions[t]}, {at});")
                positions[t] += 1
    for t in (title, also):
        if t:
            expected.append(f"{t} {id} {sha}")
length = 0
with open(os.path.join(lib, "journal", "saves.jsonl"), "w") as f:
    for record in journal:
        line = json.dumps(record, sort_keys=True, separators=(",", ":")) + "\n"
        f.write(line)
        # The old catalog holds every record but the two last saves'.
        if record.get("asset") not in (None,) and record.get("name") in ("conv_1000.jpg", "conv_1001.jpg"):
            continue
        length += len(line.encode())
sql.append(f"INSERT INTO library_state VALUES ('journal_length', {length}), ('saves_since_snapshot', 1002), ('journal_from_start', 1);")
sql.append("COMMIT;")
sql.append("PRAGMA user_version = 2;")
print("\n".join(sql))
open(os.path.join(dir, "expected"), "w").write("\n".join(sorted(expected)) + "\n")
open(os.path.join(dir, "expected-albums"), "w").write("".join(f"{albums[t]} {t}\n" for t in sorted(albums)))
PY
    sqlite3 "$lib/catalog.sqlite" <"$dir/catalog.sql" >/dev/null || return 1
    [ ! -e "$lib/catalog.sqlite-wal" ] || return 1
}

# converted_ok LIB DIR LABEL: every album (id, title), membership and asset (id, SHA-256) of the
# previous release is there; the old title leads to the renamed album; previous-release/ holds
# the old files; verify passes.
converted_ok() {
    local lib=$1 dir=$2 label=$3 bad=0 title got
    "$ALBUM" albums --json --library "$lib" 2>/dev/null | sed 's/},{/}\n{/g' |
        sed -n 's/.*"id":"\([^"]*\)".*"title":"\([^"]*\)".*/\1 \2/p' | sort -k2 >"$dir/got-albums"
    sort -k2 "$dir/expected-albums" | cmp -s - "$dir/got-albums" ||
        { fail "$label: albums [$(tr '\n' ' ' <"$dir/got-albums")], expected [$(tr '\n' ' ' <"$dir/expected-albums")]"; bad=1; }
    for title in Trips Family Empty; do show_hashes "$lib" "$title" | sed "s/^/$title /"; done | sort >"$dir/got"
    if ! cmp -s "$dir/expected" "$dir/got"; then
        fail "$label: memberships differ: $(diff "$dir/expected" "$dir/got" | grep -c '^<') missing, $(diff "$dir/expected" "$dir/got" | grep -c '^>') extra"
        bad=1
    fi
    got=$("$ALBUM" assets --json --library "$lib" 2>/dev/null | grep -o '"id":"' | wc -l)
    [ "$got" = 1002 ] || { fail "$label: $got assets in the library, not 1002"; bad=1; }
    [ -f "$lib/previous-release/catalog.sqlite" ] && cmp -s "$lib/previous-release/catalog.sqlite" "$dir/old.albumlibrary/catalog.sqlite" ||
        { fail "$label: previous-release/ does not hold the old catalog: $(ls "$lib/previous-release" 2>&1 | tr '\n' ' ')"; bad=1; }
    [ -f "$lib/previous-release/saves.jsonl" ] && cmp -s "$lib/previous-release/saves.jsonl" "$dir/old.albumlibrary/journal/saves.jsonl" ||
        { fail "$label: previous-release/ does not hold the old journal: $(ls "$lib/previous-release" "$lib/journal" 2>&1 | tr '\n' ' ')"; bad=1; }
    verify_ok "$lib" || bad=1
    return $bad
}

scenario_convert() {
    local trials=$([ "$MODE" = full ] && echo 40 || echo 6)
    echo "== convert: $trials trials"
    local dir=$WORK/convert failures=0 trial lib bad pid delay start took out
    command -v sqlite3 >/dev/null || { skip convert "needs the sqlite3 command to write a previous-release catalog"; return; }
    command -v python3 >/dev/null || { skip convert "needs python3 to write a previous-release library"; return; }
    mkdir -p "$dir"
    make_previous_release "$dir" || { fail "convert: could not write a previous-release library"; summary convert 0 1; return; }
    # Trial 0 runs unkilled: it measures the conversion and checks its note.
    lib=$dir/lib0.albumlibrary
    cp -a "$dir/old.albumlibrary" "$lib"
    start=$(date +%s%N)
    out=$("$ALBUM" albums --library "$lib" 2>&1) || { fail "convert: albums failed: $(head -2 <<<"$out" | tr '\n' ' ')"; failures=$((failures + 1)); }
    took=$((($(date +%s%N) - start) / 1000000))
    grep -q "note: The library was converted" <<<"$out" || { fail "convert: no note of the conversion: $(head -2 <<<"$out" | tr '\n' ' ')"; failures=$((failures + 1)); }
    converted_ok "$lib" "$dir" "convert trial 0" || failures=$((failures + 1))
    # A save into the old title goes into the renamed album.
    "$ALBUM" save --json --album "Trip 2024" --library "$lib" "$ROOT/Examples/garden.png" 2>&1 | grep -q '"albumOutcome":"found"' ||
        { fail "convert: a save into 'Trip 2024' did not find the renamed album"; failures=$((failures + 1)); }
    echo "  a conversion of 1002 assets takes $took ms"
    for ((trial = 1; trial < trials; trial++)); do
        lib=$dir/lib$trial.albumlibrary bad=0
        cp -a "$dir/old.albumlibrary" "$lib"
        delay=$(((RANDOM * 32768 + RANDOM) % (took + 10)))
        "$ALBUM" albums --library "$lib" >/dev/null 2>&1 &
        pid=$!
        sleep "$(printf '%d.%03d' $((delay / 1000)) $((delay % 1000)))"
        kill -9 "$pid" 2>/dev/null
        wait "$pid" 2>/dev/null
        out=$("$ALBUM" albums --library "$lib" 2>&1) || { fail "convert trial $trial (killed after $delay ms): albums: $(head -2 <<<"$out" | tr '\n' ' ')"; bad=1; }
        converted_ok "$lib" "$dir" "convert trial $trial (killed after $delay ms)" || bad=1
        echo "  trial $trial: killed after $delay ms$([ "$bad" = 0 ] || echo ', FAILED')"
        [ "$bad" = 0 ] || failures=$((failures + 1))
        [ "$bad" = 0 ] && rm -rf "$lib"
    done
    summary convert "$trials" "$failures" "a previous-release library (1002 assets, a rename, saves only in its journal) converted, kill -9 mid-way: all intact (${took} ms)"
}

# ---------------------------------------------------------------------------------------------
# convertbad: a library of the previous release whose catalog is damaged past reading (its first
# page whole, every other garbled) and whose journal is gone: nothing names its photos. The first
# opening adopts every one into "Recovered" (never an empty library), the old catalog kept; killed
# with kill -9 at random moments of that, the next opening finishes it: every photo once, verify
# passes, no marker left.
scenario_convertbad() {
    local trials=$([ "$MODE" = full ] && echo 20 || echo 5)
    echo "== convertbad: $trials trials"
    local dir=$WORK/convertbad failures=0 trial lib bad pid delay start took out expected count
    command -v sqlite3 >/dev/null || { fail "convertbad: needs the sqlite3 command"; summary convertbad 0 1; return; }
    mkdir -p "$dir"
    mkdir -p "$dir/made"
    make_previous_release "$dir/made" || { fail "convertbad: could not write a previous-release library"; summary convertbad 0 1; return; }
    cp -a "$dir/made/old.albumlibrary" "$dir/old.albumlibrary"
    sqlite3 "$dir/old.albumlibrary/catalog.sqlite" "PRAGMA wal_checkpoint(TRUNCATE);" >/dev/null
    rm -f "$dir/old.albumlibrary/catalog.sqlite-wal" "$dir/old.albumlibrary/catalog.sqlite-shm" "$dir/old.albumlibrary/journal/saves.jsonl"
    python3 - "$dir/old.albumlibrary/catalog.sqlite" <<'PY'
import sys
path = sys.argv[1]
data = bytearray(open(path, "rb").read())
for i in range(4096, len(data)):
    data[i] = (i * 7919 >> 3) & 0xFF
open(path, "wb").write(data)
PY
    expected=$(find "$dir/old.albumlibrary/originals" -type f | wc -l)
    lib=$dir/lib0.albumlibrary
    cp -a "$dir/old.albumlibrary" "$lib"
    start=$(date +%s%N)
    out=$("$ALBUM" albums --json --library "$lib" 2>&1) || { fail "convertbad: albums failed: $(head -2 <<<"$out" | tr '\n' ' ')"; failures=$((failures + 1)); }
    took=$((($(date +%s%N) - start) / 1000000))
    grep -q "could not be read" <<<"$out" || { fail "convertbad: no note of the recovery: $(head -2 <<<"$out" | tr '\n' ' ')"; failures=$((failures + 1)); }
    [ -f "$lib/previous-release/catalog.sqlite" ] || { fail "convertbad: the old catalog was not kept"; failures=$((failures + 1)); }
    for ((trial = 0; trial < trials; trial++)); do
        bad=0
        if [ "$trial" -gt 0 ]; then
            lib=$dir/lib$trial.albumlibrary
            cp -a "$dir/old.albumlibrary" "$lib"
            delay=$(((RANDOM * 32768 + RANDOM) % (took + 10)))
            "$ALBUM" albums --library "$lib" >/dev/null 2>&1 &
            pid=$!
            sleep "$(printf '%d.%03d' $((delay / 1000)) $((delay % 1000)))"
            kill -9 "$pid" 2>/dev/null
            wait "$pid" 2>/dev/null
        fi
        out=$("$ALBUM" albums --json --library "$lib" 2>"$dir/err") || { fail "convertbad trial $trial: albums: $(head -2 "$dir/err" | tr '\n' ' ')"; bad=1; }
        count=$(python3 -c 'import json,sys; a=json.load(sys.stdin); print(sum(x["count"] for x in a if x["title"]=="Recovered"), len(a))' <<<"$out" 2>/dev/null)
        [ "$count" = "$expected 1" ] || { fail "convertbad trial $trial (killed after ${delay:-no} ms): Recovered holds '$count' (count, albums), expected $expected in one album"; bad=1; }
        [ -e "$lib/adopting-originals" ] && { fail "convertbad trial $trial: the marker is left"; bad=1; }
        verify_ok "$lib" || bad=1
        [ "$bad" = 0 ] || failures=$((failures + 1))
        [ "$bad" = 0 ] && rm -rf "$lib"
    done
    summary convertbad "$trials" "$failures" "a previous-release library whose catalog cannot be read and journal is gone: its $expected photos adopted into Recovered, kill -9 mid-way finished next time (${took} ms)"
}

# ---------------------------------------------------------------------------------------------
# repairrace: `album repair` in a loop while 3 processes save: no save fails, none is recorded
# twice or adopted into "Recovered" while in flight, none acknowledged is lost, verify passes.
scenario_repairrace() {
    local batches=$([ "$MODE" = full ] && echo 120 || echo 30)
    echo "== repairrace: 3 savers x $batches batches"
    local dir=$WORK/repairrace lib=$WORK/repairrace/lib.albumlibrary bad=0 worker pids pid statuses repairs=0 repair_failures=0
    mkdir -p "$dir"
    save_batch "$lib" Busy "$dir/acks-start" "$ROOT/Examples/harbour.jpg"
    rm -f "$dir/stop"
    pids=()
    for ((worker = 0; worker < 3; worker++)); do
        make_jpegs "$dir/w$worker" $((batches * 5)) "rr-w$worker"
        (
            files=("$dir/w$worker"/*.jpg) status=0
            for ((b = 0; b < batches; b++)); do
                "$ALBUM" save --json --album Busy --library "$lib" "${files[@]:$((b * 5)):5}" \
                    >>"$dir/acks-w$worker" 2>>"$dir/err-w$worker" || status=1
            done
            exit $status
        ) &
        pids+=($!)
    done
    (
        runs=0 failed=0
        while [ ! -e "$dir/stop" ]; do
            "$ALBUM" repair --library "$lib" >"$dir/repair.out" 2>&1 || { failed=$((failed + 1)); cp "$dir/repair.out" "$dir/repair.failed"; }
            runs=$((runs + 1))
        done
        echo "$runs $failed" >"$dir/repair.count"
    ) &
    local repairer=$!
    statuses=0
    for pid in "${pids[@]}"; do wait "$pid" || statuses=$((statuses + 1)); done
    touch "$dir/stop"
    wait "$repairer"
    read -r repairs repair_failures <"$dir/repair.count"
    cat "$dir"/acks-w* >"$dir/acks"
    echo "  $(grep -c '"asset"' "$dir/acks") saves acknowledged, $repairs repairs meanwhile ($repair_failures failed)"
    [ "$statuses" = 0 ] || { fail "repairrace: $statuses savers had a failed save: $(cat "$dir"/err-w* | head -3 | tr '\n' ' ')"; bad=1; }
    [ "$repairs" -gt 0 ] || { fail "repairrace: no repair ran during the saves"; bad=1; }
    [ "$repair_failures" = 0 ] || { fail "repairrace: $repair_failures repairs failed: $(head -2 "$dir/repair.failed" | tr '\n' ' ')"; bad=1; }
    [ "$(grep -c '"asset"' "$dir/acks")" = $((batches * 15)) ] || { fail "repairrace: $(grep -c '"asset"' "$dir/acks") of $((batches * 15)) acknowledged"; bad=1; }
    # Never a duplicate: no asset id, path or content saved twice in the journal.
    journal_records "$lib" >"$dir/records"
    local dup
    for column in 2 3 4; do
        dup=$(awk -v c="$column" '$1 == "save" { print $c }' "$dir/records" | sort | uniq -d | head -3)
        [ -z "$dup" ] || { fail "repairrace: saved twice in the journal (field $column): $dup"; bad=1; }
    done
    grep -q DAMAGED "$dir/records" && { fail "repairrace: the journal holds a damaged line"; bad=1; }
    album_titles "$lib" | grep -qx Recovered && { fail "repairrace: repair adopted in-flight files into \"Recovered\": $(show_hashes "$lib" Recovered | wc -l)"; bad=1; }
    check_acknowledged "$lib" Busy "$dir/acks" || bad=1
    [ "$(show_hashes "$lib" Busy | wc -l)" = $((batches * 15 + 1)) ] || { fail "repairrace: Busy holds $(show_hashes "$lib" Busy | wc -l), not $((batches * 15 + 1))"; bad=1; }
    verify_ok "$lib" || bad=1
    summary repairrace "$repairs" "$bad" "album repair in a loop while 3 processes save: no duplicate record, no adoption, nothing lost"
}

# movekill: `album import --move` of a 200-photo card killed with kill -9 at random moments, into a
# catalog and a folder library in turn. Afterwards every photo is on the card unchanged or in the
# library byte for byte (never in neither), verify passes, and importing again with --move empties
# the card with everything in the library.
scenario_movekill() {
    # A quarter of kill9's trials: each one copies a card, imports it twice and hashes everything.
    local trials=$(((KILL_TRIALS + 3) / 4))
    echo "== movekill: $trials trials (import --move of 200 photos killed, catalog and folder library)"
    local pool=$WORK/movekill/pool failures=0 trial lib card kind delay pid bad sums name left moved
    make_jpegs "$pool" 200 move
    (cd "$pool" && sha256sum -- *.jpg) >"$WORK/movekill/pool.sums"
    for ((trial = 0; trial < trials; trial++)); do
        card=$WORK/movekill/card-$trial
        lib=$WORK/movekill/lib-$trial
        mkdir -p "$card/DCIM/100CANON"
        cp -p "$pool"/*.jpg "$card/DCIM/100CANON/"
        if ((trial % 2)); then kind=(--folders --library "$lib"); else kind=(--library "$lib.albumlibrary"); fi
        setsid "$ALBUM" import --json --move --album Card "${kind[@]}" "$card" >"$card.out" 2>/dev/null &
        pid=$!
        # Killed while it moves: a random moment after the first result (one trial in four before).
        if ((trial % 4 != 2)); then
            for _ in $(seq 3000); do grep -q '"file"' "$card.out" 2>/dev/null && break; sleep 0.01; done
        fi
        delay=$(printf '0.%03d' $((RANDOM % 1000)))
        sleep "$delay"
        kill -9 -- "-$pid" 2>/dev/null
        wait "$pid" 2>/dev/null
        bad=0
        # Opening the library again (verify) sweeps what the killed process left.
        # (Killed before the library was made: nothing to verify, every photo must be on the card.)
        if ((trial % 2)); then
            [ ! -e "$lib" ] || verify_ok "$lib" || bad=1
        else
            [ ! -e "$lib.albumlibrary" ] || verify_ok "$lib.albumlibrary" || bad=1
        fi
        sums=$(find "$lib" "$lib.albumlibrary" -type f -print0 2>/dev/null | xargs -0 -r sha256sum | cut -c1-64 | sort -u)
        left=0 moved=0
        while read -r sum name; do
            if [ -f "$card/DCIM/100CANON/$name" ]; then
                left=$((left + 1))
                [ "$(sha256sum <"$card/DCIM/100CANON/$name" | cut -c1-64)" = "$sum" ] ||
                    { fail "movekill trial $trial: $name changed on the card"; bad=1; }
            elif grep -qx "$sum" <<<"$sums"; then
                moved=$((moved + 1))
            else
                fail "movekill trial $trial: $name is neither on the card nor in the library"
                bad=1
            fi
        done <"$WORK/movekill/pool.sums"
        # The same import again finishes the move.
        "$ALBUM" import -q --move --album Card "${kind[@]}" "$card" >/dev/null 2>&1 ||
            { fail "movekill trial $trial: importing again failed"; bad=1; }
        if [ -n "$(find "$card" -type f)" ]; then fail "movekill trial $trial: files left on the card after importing again"; bad=1; fi
        sums=$(find "$lib" "$lib.albumlibrary" -type f -print0 2>/dev/null | xargs -0 -r sha256sum | cut -c1-64 | sort -u)
        while read -r sum name; do
            grep -qx "$sum" <<<"$sums" || { fail "movekill trial $trial: $name missing after importing again"; bad=1; }
        done <"$WORK/movekill/pool.sums"
        echo "  trial $trial (${kind[0]#--}, killed ${delay}s after $( ((trial % 4 != 2)) && echo 'the first result' || echo 'the start')): $moved moved, $left still on the card$([ "$bad" = 0 ] || echo ', FAILED')"
        if [ "$bad" = 0 ]; then rm -rf "$card" "$card.out" "$lib" "$lib.albumlibrary"; else failures=$((failures + 1)); fi
    done
    summary movekill "$trials" "$failures" "every photo on the card unchanged or in the library byte for byte"
}

# companionkill: `album import` of a card of RAW+JPEG pairs with .xmp sidecars killed with kill -9
# at random moments, into a catalog and a folder library in turn. Afterwards verify passes, every
# photo the library lists has its raw and its sidecar beside it byte for byte (never a photo
# without its companions, never a companion listed as a photo of its own), and importing again
# completes the card: every pair once.
scenario_companionkill() {
    local trials=$(((KILL_TRIALS + 3) / 4))
    echo "== companionkill: $trials trials (import of 60 RAW+JPEG pairs with sidecars killed, catalog and folder library)"
    local pool=$WORK/companionkill/pool failures=0 trial lib card kind delay pid bad out name listing
    make_jpegs "$pool" 60 pair
    for name in "$pool"/*.jpg; do
        head -c $((4000 + RANDOM % 4000)) /dev/urandom >"${name%.jpg}.CR2"
        printf '<x:xmpmeta xmlns:x="adobe:ns:meta/">%s %s</x:xmpmeta>' "$(basename "$name")" "$RANDOM" >"${name%.jpg}.xmp"
    done
    for ((trial = 0; trial < trials; trial++)); do
        card=$WORK/companionkill/card-$trial
        lib=$WORK/companionkill/lib-$trial
        mkdir -p "$card/DCIM/100CANON"
        cp -p "$pool"/* "$card/DCIM/100CANON/"
        if ((trial % 2)); then kind=(--folders --library "$lib"); else kind=(--library "$lib.albumlibrary"); fi
        setsid "$ALBUM" import --json --album Card "${kind[@]}" "$card" >"$card.out" 2>/dev/null &
        pid=$!
        if ((trial % 4 != 2)); then
            for _ in $(seq 3000); do grep -q '"file"' "$card.out" 2>/dev/null && break; sleep 0.01; done
        fi
        delay=$(printf '0.%03d' $((RANDOM % 500)))
        sleep "$delay"
        kill -9 -- "-$pid" 2>/dev/null
        wait "$pid" 2>/dev/null
        bad=0
        for pass in killed again; do
            if [ "$pass" = again ]; then
                "$ALBUM" import -q --album Card "${kind[@]}" "$card" >/dev/null 2>&1 ||
                    { fail "companionkill trial $trial: importing again failed"; bad=1; }
            fi
            [ -e "$lib" ] || [ -e "$lib.albumlibrary" ] || continue
            if ((trial % 2)); then verify_ok "$lib" || bad=1; else verify_ok "$lib.albumlibrary" || bad=1; fi
            # show fails (status 1, an error object) when the album is missing: its status is not the check's.
            listing=$("$ALBUM" show Card --json "${kind[@]}" 2>/dev/null) || true
            out=$(python3 -c '
import json, sys, hashlib, os
card, final = sys.argv[1], sys.argv[2] == "again"
def sha(p):
    try: return hashlib.sha256(open(p, "rb").read()).hexdigest()
    except OSError as error: return "unreadable (%s)" % error
try: assets = json.load(sys.stdin)
except ValueError: assets = []
problems = []
if not isinstance(assets, list):
    # An error object: the album is missing (killed before its first save); after importing
    # again that is a failure.
    if final: problems.append("show failed: %s" % str(assets)[:200])
    assets = []
names = [a.get("file") for a in assets]
for a in assets:
    stem = os.path.splitext(a["file"])[0]
    if not a["file"].endswith(".jpg"): problems.append("%s listed as a photo of its own" % a["file"])
    companions = {c["file"]: c for c in a.get("companions", [])}
    for ext in (".CR2", ".xmp"):
        c = companions.get(stem + ext)
        if c is None: problems.append("%s lacks %s" % (a["file"], stem + ext)); continue
        if sha(c["path"]) != sha(os.path.join(card, stem + ext)): problems.append("%s differs" % c["path"])
    if sha(a["path"]) != sha(os.path.join(card, a["file"])): problems.append("%s differs" % a["path"])
if len(set(names)) != len(names): problems.append("a photo listed twice")
if final and len(names) != 60: problems.append("%d photos after importing again, not 60" % len(names))
print("; ".join(problems[:5]))
' "$card/DCIM/100CANON" "$pass" <<<"$listing" || echo "the check itself failed")
            [ -z "$out" ] || { fail "companionkill trial $trial ($pass): $out"; bad=1; }
        done
        echo "  trial $trial (${kind[0]#--}, killed ${delay}s after $( ((trial % 4 != 2)) && echo 'the first result' || echo 'the start'))$([ "$bad" = 0 ] || echo ', FAILED')"
        if [ "$bad" = 0 ]; then rm -rf "$card" "$card.out" "$lib" "$lib.albumlibrary"; else failures=$((failures + 1)); fi
    done
    summary companionkill "$trials" "$failures" "every photo with its raw and sidecar byte for byte, none without them, the card complete after importing again"
}

# companionupdate: a card of 200 photos with .xmp sidecars imported, then every sidecar rewritten
# (other bytes, a later time) and an .AAE added beside every photo; `album import` of it again
# (which updates the photos' companions) killed with kill -9 at random moments, into a catalog and a
# folder library in turn. Afterwards verify passes and every photo the library lists has its
# sidecar, byte for byte the earlier version or the new one (never neither), its .AAE absent or
# byte for byte the new one; importing again leaves every photo with the new versions, and the
# catalog with no file no record names (verify).
scenario_companionupdate() {
    local trials=$(((KILL_TRIALS + 3) / 4))
    echo "== companionupdate: $trials trials (re-import updating 200 photos' sidecars killed, catalog and folder library)"
    local pool=$WORK/companionupdate/pool failures=0 trial lib card kind delay pid bad out name updated listing pass
    make_jpegs "$pool" 200 update
    for name in "$pool"/*.jpg; do
        printf '<x:xmpmeta xmlns:x="adobe:ns:meta/">%s first %s</x:xmpmeta>' "$(basename "$name")" "$RANDOM" >"${name%.jpg}.xmp"
    done
    for ((trial = 0; trial < trials; trial++)); do
        card=$WORK/companionupdate/card-$trial
        lib=$WORK/companionupdate/lib-$trial
        mkdir -p "$card/DCIM/100CANON" "$card.old"
        cp -p "$pool"/* "$card/DCIM/100CANON/"
        cp -p "$pool"/*.xmp "$card.old/"
        if ((trial % 2)); then kind=(--folders --library "$lib"); else kind=(--library "$lib.albumlibrary"); fi
        export XDG_DATA_HOME=$card.data
        if ! "$ALBUM" import -q --album Card "${kind[@]}" "$card" >/dev/null 2>&1; then
            fail "companionupdate trial $trial: the first import failed"
            failures=$((failures + 1))
            continue
        fi
        for name in "$card"/DCIM/100CANON/*.jpg; do
            printf '<x:xmpmeta xmlns:x="adobe:ns:meta/">%s edited %s%s</x:xmpmeta>' "$(basename "$name")" "$RANDOM" "$RANDOM" >"${name%.jpg}.xmp"
            printf '<plist>%s %s</plist>' "$(basename "$name")" "$RANDOM" >"${name%.jpg}.AAE"
        done
        touch -d '+1 minute' "$card"/DCIM/100CANON/*.xmp
        setsid "$ALBUM" import --json --album Card "${kind[@]}" "$card" >"$card.out" 2>/dev/null &
        pid=$!
        if ((trial % 4 != 2)); then
            for _ in $(seq 3000); do grep -q '"file"' "$card.out" 2>/dev/null && break; sleep 0.01; done
        fi
        # After the first result: within the next chunks; after the start: anywhere (debug builds start slowly).
        if ((trial % 4 != 2)); then delay=$(printf '0.%03d' $((RANDOM % 150))); else delay=$(printf '%d.%03d' $((RANDOM % 2)) $((RANDOM % 1000))); fi
        sleep "$delay"
        kill -9 -- "-$pid" 2>/dev/null
        wait "$pid" 2>/dev/null
        bad=0
        for pass in killed again; do
            if [ "$pass" = again ]; then
                "$ALBUM" import -q --album Card "${kind[@]}" "$card" >/dev/null 2>&1 ||
                    { fail "companionupdate trial $trial: importing again failed"; bad=1; }
            fi
            if ((trial % 2)); then verify_ok "$lib" || bad=1; else verify_ok "$lib.albumlibrary" || bad=1; fi
            # show fails (status 1, an error object) when the album is missing: its status is not the check's.
            listing=$("$ALBUM" show Card --json "${kind[@]}" 2>/dev/null) || true
            out=$(python3 -c '
import json, sys, hashlib, os
card, old, final = sys.argv[1], sys.argv[2], sys.argv[3] == "again"
def sha(p):
    try: return hashlib.sha256(open(p, "rb").read()).hexdigest()
    except OSError as error: return "unreadable (%s)" % error
try: assets = json.load(sys.stdin)
except ValueError: assets = []
problems = []
updated = 0
for a in assets:
    stem = os.path.splitext(a["file"])[0]
    companions = {c["file"]: c for c in a.get("companions", [])}
    xmp, aae = companions.get(stem + ".xmp"), companions.get(stem + ".AAE")
    if xmp is None or not os.path.exists(xmp["path"]):
        problems.append("%s lacks its sidecar" % a["file"]); continue
    now = sha(xmp["path"])
    if now == sha(os.path.join(card, stem + ".xmp")): updated += 1
    elif final or now != sha(os.path.join(old, stem + ".xmp")): problems.append("%s is neither version" % xmp["path"])
    if aae is not None and sha(aae["path"]) != sha(os.path.join(card, stem + ".AAE")): problems.append("%s differs" % aae["path"])
    if final and aae is None: problems.append("%s lacks its .AAE after importing again" % a["file"])
    if sha(a["path"]) != sha(os.path.join(card, a["file"])): problems.append("%s differs" % a["path"])
if len(assets) != 200: problems.append("%d photos, not 200" % len(assets))
print("; ".join(problems[:5]) or "ok %d" % updated)
' "$card/DCIM/100CANON" "$card.old" "$pass" <<<"$listing" || echo "the check itself failed")
            case $out in
            ok*) [ "$pass" = killed ] && updated=${out#ok } ;;
            *) fail "companionupdate trial $trial ($pass): $out"; bad=1 ;;
            esac
        done
        unset XDG_DATA_HOME
        echo "  trial $trial (${kind[0]#--}, killed ${delay}s after $( ((trial % 4 != 2)) && echo 'the first result' || echo 'the start')): ${updated:-?} of 200 updated when killed$([ "$bad" = 0 ] || echo ', FAILED')"
        if [ "$bad" = 0 ]; then rm -rf "$card" "$card.out" "$card.old" "$card.data" "$lib" "$lib.albumlibrary"; else failures=$((failures + 1)); fi
    done
    summary companionupdate "$trials" "$failures" "every photo's sidecar the earlier version or the new one, never neither; the new ones after importing again"
}

# movechange: `album import --move` of a 60-photo card while another program appends to random card
# files every few milliseconds (a camera app still writing, a tagger), catalog and folder library
# in turn. A file is removed only when the library holds the bytes it had when it was removed: for
# every file gone from the card, the library holds its pool bytes with every append made to it
# while it still had its name (an append that went into a file already without a name is the
# documented window, counted apart).
scenario_movechange() {
    local trials=$((KILL_TRIALS >= 100 ? 10 : 2))
    echo "== movechange: $trials trials (import --move of 60 photos while their files are appended to)"
    local pool=$WORK/movechange/pool failures=0 trial lib card kind writer out
    make_jpegs "$pool" 60 change
    for ((trial = 0; trial < trials; trial++)); do
        card=$WORK/movechange/card-$trial
        lib=$WORK/movechange/lib-$trial
        mkdir -p "$card"
        cp -p "$pool"/*.jpg "$card/"
        if ((trial % 2)); then kind=(--folders --library "$lib"); else kind=(--library "$lib.albumlibrary"); fi
        touch "$card.running"
        # The writer: appends a tag to a random card file (never creating one), then records it,
        # or records it as late when the file had no name any more once written.
        python3 -c '
import os, random, sys, time
card, log = sys.argv[1], open(sys.argv[2], "w")
names = sorted(os.listdir(card)); n = 0
while os.path.exists(sys.argv[3]):
    name = random.choice(names); n += 1
    try: fd = os.open(os.path.join(card, name), os.O_WRONLY | os.O_APPEND)
    except OSError: continue
    tag = b"<tag %d>" % n
    os.write(fd, tag); late = os.fstat(fd).st_nlink == 0; os.close(fd)
    log.write("%s %s %s\n" % ("late" if late else "tag", name, tag.decode())); log.flush()
    time.sleep(random.uniform(0.003, 0.015))
' "$card" "$card.tags" "$card.running" &
        writer=$!
        sleep 0.2
        "$ALBUM" import -q --move --album Card "${kind[@]}" "$card" >/dev/null 2>"$card.err"
        rm -f "$card.running"
        wait "$writer" 2>/dev/null
        out=$(python3 -c '
import hashlib, os, sys
pool, card, tags, libs = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
held = set()
for lib in libs:
    for top, _, files in os.walk(lib):
        for f in files:
            with open(os.path.join(top, f), "rb") as h: held.add(hashlib.sha256(h.read()).hexdigest())
appended, late = {}, 0
for line in open(tags):
    kind, name, tag = line.split(" ", 2)
    if kind == "late": late += 1
    else: appended.setdefault(name, []).append(tag.rstrip("\n").encode())
problems, moved = [], 0
for name in sorted(os.listdir(pool)):
    if os.path.exists(os.path.join(card, name)): continue
    moved += 1
    data = open(os.path.join(pool, name), "rb").read() + b"".join(appended.get(name, []))
    if hashlib.sha256(data).hexdigest() not in held: problems.append(name)
print(("lost " + " ".join(problems[:5])) if problems else "ok %d moved, %d appends, %d late" % (moved, sum(map(len, appended.values())), late))
' "$pool" "$card" "$card.tags" "$lib" "$lib.albumlibrary" 2>&1)
        echo "  trial $trial (${kind[0]#--}): $out"
        case $out in
        ok*) rm -rf "$card" "$card.tags" "$card.err" "$lib" "$lib.albumlibrary" ;;
        *) fail "movechange trial $trial: a file was removed without its last bytes in the library: $out"; failures=$((failures + 1)) ;;
        esac
    done
    summary movechange "$trials" "$failures" "no card file removed unless the library holds the bytes it had then"
}

# moveself: `album import --move --album-by-date %Y/%m` of a folder library's own folder over itself
# (sorting Pictures by date), twice, and `import --move` of a catalog card holding a catalog library:
# no photo is lost; the inner catalog's original stays and it verifies.
scenario_moveself() {
    echo "== moveself: --move over the library itself, and a card holding a catalog library"
    local dir=$WORK/moveself failures=0 pass before after
    make_jpegs "$dir/Pictures/loose" 20 self
    before=$(find "$dir/Pictures" -type f -name '*.jpg' -print0 | xargs -0 sha256sum | cut -c1-64 | sort -u)
    for pass in 1 2; do
        "$ALBUM" import -q --move --album-by-date %Y/%m --folders --library "$dir/Pictures" "$dir/Pictures" >/dev/null 2>&1
        after=$(find "$dir/Pictures" -type f -name '*.jpg' -print0 | xargs -0 sha256sum | cut -c1-64 | sort -u)
        if [ -n "$(comm -23 <(echo "$before") <(echo "$after"))" ]; then
            fail "moveself pass $pass: photos sorted by date over their own library were lost"
            failures=$((failures + 1))
        fi
    done
    make_jpegs "$dir/card-photos" 5 inner
    mkdir -p "$dir/card"
    "$ALBUM" save -q --move --library "$dir/card/Photos.albumlibrary" "$dir/card-photos"/*.jpg >/dev/null 2>&1
    before=$(find "$dir/card/Photos.albumlibrary/originals" -type f | wc -l)
    "$ALBUM" import -q --move --library "$dir/Other.albumlibrary" "$dir/card" >/dev/null 2>&1
    "$ALBUM" import -q --move --library "$dir/Other.albumlibrary" "$dir/card/Photos.albumlibrary/originals" >/dev/null 2>&1
    after=$(find "$dir/card/Photos.albumlibrary/originals" -type f | wc -l)
    if [ "$before" != 5 ] || [ "$after" != 5 ]; then
        fail "moveself: the card's own catalog had $before originals, $after after importing the card with --move"
        failures=$((failures + 1))
    fi
    verify_ok "$dir/card/Photos.albumlibrary" || failures=$((failures + 1))
    summary moveself 3 "$failures" "sorting Pictures over itself and a card holding a catalog: nothing lost"
}

# exportrace: two `album export` of one 60-photo album into one folder at the same instant, 3
# trials: the folder holds each photo once.
scenario_exportrace() {
    echo "== exportrace: two exports into one folder at once"
    local dir=$WORK/exportrace failures=0 trial out count distinct
    make_jpegs "$dir/photos" 60 export
    "$ALBUM" save -q --album Trips --library "$dir/L.albumlibrary" "$dir/photos"/*.jpg >/dev/null 2>&1
    for ((trial = 0; trial < 3; trial++)); do
        out=$dir/out-$trial
        "$ALBUM" export -q Trips "$out" --library "$dir/L.albumlibrary" >/dev/null 2>&1 &
        "$ALBUM" export -q Trips "$out" --library "$dir/L.albumlibrary" >/dev/null 2>&1 &
        wait
        count=$(find "$out" -type f ! -name '.*' | wc -l)
        distinct=$(find "$out" -type f ! -name '.*' -print0 | xargs -0 sha256sum | cut -c1-64 | sort -u | wc -l)
        echo "  trial $trial: $count files, $distinct distinct"
        if [ "$count" != 60 ] || [ "$distinct" != 60 ]; then
            fail "exportrace trial $trial: $count files ($distinct distinct), not 60"
            failures=$((failures + 1))
        fi
    done
    summary exportrace 3 "$failures" "two exports at once: each photo once"
}
