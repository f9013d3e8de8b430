# Hostile-library scenarios of Scripts/reliability.sh (issue 41), sourced by it. A catalog library
# someone else wrote (received, restored from an untrusted copy, planted in): forged journal records
# with valid checksums, planted publishing lists, folders and files that are links out of the
# library. The owner then does what owners do (`albums`, `save`, `export`, `verify`, `repair`) with
# the real `album` CLI, and nothing outside the library may be removed, overwritten or copied out.
#
#   hostile-records  forged records: a save naming ../victim/victim.txt then deleted and purged; the
#                    same through a shard folder that is a link; companions leading out; a purge of
#                    a photo still shown; a save naming a file outside with a photo's size and
#                    SHA-256, then that photo saved (saved as its own asset, nothing written
#                    outside); a photo outside placed in an
#                    album by path, by a linked folder and by a linked file, then the album exported;
#                    a forged companion naming another photo's own file, then let go.
#   hostile-lists    a planted owners/*.publishing list naming files through a shard folder that is
#                    a link out of the library (names as a save gives them, and others), opened,
#                    verified, repaired and emptied; owners/ itself a link out, then a save.

# forge_records LIB JSON...: appends each JSON object to LIB's journal as a record with its CRC-32,
# as another process would (keys sorted, one line each).
forge_records() {
    local lib=$1
    shift
    python3 - "$lib/journal/library.journal" "$@" <<'PY'
import json, sys, zlib
with open(sys.argv[1], "ab") as journal:
    for text in sys.argv[2:]:
        body = json.dumps(json.loads(text), sort_keys=True, separators=(",", ":")).encode()
        journal.write(b"%08x " % (zlib.crc32(body) & 0xFFFFFFFF) + body + b"\n")
PY
}

# hostile_scene DIR: a library DIR/lib.albumlibrary with one photo in "Trips", and DIR/victim with
# victim.txt ("private") and secret.jpg (a photo that is not the library's). Prints the photo's id.
hostile_scene() {
    local dir=$1
    mkdir -p "$dir/media" "$dir/victim"
    make_jpegs "$dir/media" 3 hs
    cp "$dir/media/hs_0002.jpg" "$dir/victim/secret.jpg"
    printf private >"$dir/victim/victim.txt"
    (cd "$dir/victim" && sha256sum victim.txt secret.jpg >"$dir/victim.sums")
    "$ALBUM" save -q --album Trips --library "$dir/lib.albumlibrary" "$dir/media/hs_0000.jpg" >/dev/null ||
        return 1
    show_hashes "$dir/lib.albumlibrary" Trips | cut -d' ' -f1
}

# outside_intact DIR WHAT: the files outside the library are there with their bytes.
outside_intact() {
    (cd "$1/victim" && sha256sum --quiet -c "$1/victim.sums" >/dev/null 2>&1) && return 0
    fail "$2: a file outside the library was removed or changed"
    return 1
}

# record_save ID PATH FILE: a save record of PATH with FILE's size and SHA-256.
record_save() {
    printf '{"op":"save","id":"%s","path":"%s","name":"IMG_9.JPG","size":%s,"sha256":"%s","kind":"photo","format":"jpeg","added":1700000000}' \
        "$1" "$2" "$(stat -c %s "$3")" "$(sha256sum "$3" | cut -d' ' -f1)"
}

scenario_hostile-records() {
    echo "== hostile-records: forged journal records naming files outside the library"
    local base=$WORK/hostile-records failures=0 trials=0 dir lib id own forged album out how count
    # A save naming a file outside, deleted then purged; then the same through a linked shard.
    for how in escaping linked; do
        trials=$((trials + 1))
        dir=$base/purge-$how lib=$dir/lib.albumlibrary
        own=$(hostile_scene "$dir") || { fail "hostile-records $how: the first save failed"; failures=$((failures + 1)); continue; }
        id=$(python3 -c 'import uuid; print(uuid.uuid4())')
        if [ "$how" = escaping ]; then
            forged=../victim/victim.txt
        else
            ln -s "$dir/victim" "$lib/originals/zz"
            forged=originals/zz/victim.txt
        fi
        forge_records "$lib" "$(record_save "$id" "$forged" "$dir/victim/victim.txt")" \
            "{\"op\":\"deleteAssets\",\"assets\":\"$id\",\"at\":1700000001}" "{\"op\":\"purgeAssets\",\"assets\":\"$id\"}"
        "$ALBUM" albums --library "$lib" >/dev/null 2>&1
        "$ALBUM" deleted --empty --days 0 --library "$lib" >/dev/null 2>&1
        outside_intact "$dir" "hostile-records purge ($how)" || failures=$((failures + 1))
        [ "$(show_hashes "$lib" Trips | cut -d' ' -f1)" = "$own" ] ||
            { fail "hostile-records purge ($how): the owner's photo is not shown"; failures=$((failures + 1)); }
        out=$("$ALBUM" verify --library "$lib" 2>&1)
        if [ "$how" = escaping ] && ! grep -q "not a file of the library" <<<"$out"; then
            fail "hostile-records purge ($how): verify does not report the forged record"
            failures=$((failures + 1))
        fi
    done
    # Companions leading out, given to the owner's photo and then taken away (the earlier go).
    trials=$((trials + 1))
    dir=$base/companions lib=$dir/lib.albumlibrary
    if own=$(hostile_scene "$dir"); then
        ln -s "$dir/victim" "$lib/originals/zz"
        local companion='{"name":"IMG.xmp","path":"%s","role":"sidecar","sha256":"00","size":7}'
        forge_records "$lib" \
            "{\"op\":\"setCompanions\",\"id\":\"$own\",\"companions\":\"[$(printf "$companion" ../victim/victim.txt | sed 's/"/\\"/g')]\"}" \
            "{\"op\":\"setCompanions\",\"id\":\"$own\",\"companions\":\"[]\"}" \
            "{\"op\":\"setCompanions\",\"id\":\"$own\",\"companions\":\"[$(printf "$companion" originals/zz/victim.txt | sed 's/"/\\"/g')]\"}" \
            "{\"op\":\"setCompanions\",\"id\":\"$own\",\"companions\":\"[]\"}"
        "$ALBUM" albums --library "$lib" >/dev/null 2>&1
        outside_intact "$dir" "hostile-records companions" || failures=$((failures + 1))
    else
        fail "hostile-records companions: the first save failed"
        failures=$((failures + 1))
    fi
    # A purge of a photo still shown: refused, reported, and `repair` keeps the photo.
    trials=$((trials + 1))
    dir=$base/livepurge lib=$dir/lib.albumlibrary
    if own=$(hostile_scene "$dir"); then
        forge_records "$lib" "{\"op\":\"purgeAssets\",\"assets\":\"$own\"}"
        "$ALBUM" albums --library "$lib" >/dev/null 2>&1
        count=$(find "$lib/originals" -type f ! -name '.*' | wc -l)
        if [ "$(show_hashes "$lib" Trips | cut -d' ' -f1)" != "$own" ] || [ "$count" != 1 ]; then
            fail "hostile-records live purge: the shown photo was purged"
            failures=$((failures + 1))
        fi
        out=$("$ALBUM" verify --library "$lib" 2>&1)
        grep -q "not applied" <<<"$out" ||
            { fail "hostile-records live purge: verify does not report the refused purge"; failures=$((failures + 1)); }
        "$ALBUM" repair --library "$lib" >/dev/null 2>&1
        [ "$(show_hashes "$lib" Trips | cut -d' ' -f1)" = "$own" ] ||
            { fail "hostile-records live purge: the photo is gone after repair"; failures=$((failures + 1)); }
        verify_ok "$lib" || failures=$((failures + 1))
    else
        fail "hostile-records live purge: the first save failed"
        failures=$((failures + 1))
    fi
    # A save naming a file outside with a photo's size and SHA-256; the owner saves that photo
    # (which restores a damaged original in place): nothing is written outside.
    for how in escaping linked; do
        trials=$((trials + 1))
        dir=$base/resave-$how lib=$dir/lib.albumlibrary
        own=$(hostile_scene "$dir") || { fail "hostile-records resave $how: the first save failed"; failures=$((failures + 1)); continue; }
        if [ "$how" = escaping ]; then
            forged=../victim/victim.txt
        else
            ln -s "$dir/victim" "$lib/originals/zz"
            forged=originals/zz/victim.txt
        fi
        forge_records "$lib" "$(record_save "$(python3 -c 'import uuid; print(uuid.uuid4())')" "$forged" "$dir/media/hs_0001.jpg")"
        # Saved as an asset of its own: the record is not believed, or its file cannot be put back.
        "$ALBUM" save -q --album Trips --library "$lib" "$dir/media/hs_0001.jpg" >/dev/null 2>&1 ||
            { fail "hostile-records resave ($how): the save failed"; failures=$((failures + 1)); }
        [ "$(show_hashes "$lib" Trips | wc -l)" = 2 ] ||
            { fail "hostile-records resave ($how): the album does not show both photos"; failures=$((failures + 1)); }
        outside_intact "$dir" "hostile-records resave ($how)" || failures=$((failures + 1))
        [ ! -e "$lib/damaged" ] ||
            { fail "hostile-records resave ($how): a file was moved into the library's damaged/"; failures=$((failures + 1)); }
    done
    # A photo outside placed in an album (by its path, through a linked shard, as a linked file),
    # with its true size and SHA-256; the album exported: none of its bytes come out.
    for how in escaping linkedfolder linkedfile; do
        trials=$((trials + 1))
        dir=$base/export-$how lib=$dir/lib.albumlibrary out=$dir/out
        own=$(hostile_scene "$dir") || { fail "hostile-records export $how: the first save failed"; failures=$((failures + 1)); continue; }
        id=$(python3 -c 'import uuid; print(uuid.uuid4())')
        album=$(python3 -c 'import uuid; print(uuid.uuid4())')
        case $how in
            escaping) forged=../victim/secret.jpg ;;
            linkedfolder)
                ln -s "$dir/victim" "$lib/originals/zz"
                forged=originals/zz/secret.jpg
                ;;
            linkedfile)
                mkdir -p "$lib/originals/ab"
                ln -s "$dir/victim/secret.jpg" "$lib/originals/ab/$id.jpg"
                forged=originals/ab/$id.jpg
                ;;
        esac
        forge_records "$lib" "$(record_save "$id" "$forged" "$dir/victim/secret.jpg")" \
            "{\"op\":\"createAlbum\",\"id\":\"$album\",\"title\":\"Loot\",\"at\":1700000000}" \
            "{\"op\":\"addToAlbum\",\"id\":\"$album\",\"assets\":\"$id $own\",\"at\":1700000000}"
        "$ALBUM" export Loot "$out" --library "$lib" >/dev/null 2>&1
        if [ -d "$out" ] && find "$out" -type f -exec cmp -s "$dir/victim/secret.jpg" {} \; -print | grep -q .; then
            fail "hostile-records export ($how): a file outside the library was exported"
            failures=$((failures + 1))
        fi
        outside_intact "$dir" "hostile-records export ($how)" || failures=$((failures + 1))
    done
    # A forged setCompanions giving the owner's photo a second photo's own file as a sidecar, then
    # none: the second photo keeps its file.
    trials=$((trials + 1))
    dir=$base/companion lib=$dir/lib.albumlibrary
    own=$(hostile_scene "$dir") || { fail "hostile-records companion: the first save failed"; failures=$((failures + 1)); }
    "$ALBUM" save -q --album Trips --library "$lib" "$dir/media/hs_0001.jpg" >/dev/null 2>&1
    local other file sidecar
    other=$(show_hashes "$lib" Trips | cut -d' ' -f1 | grep -v "$own" | head -1)
    file=$(cd "$lib" && find originals -name "$other.*" | head -1)
    sidecar=$(python3 -c 'import json, sys; print(json.dumps(json.dumps([{"role": "sidecar", "name": "IMG.xmp", "path": sys.argv[1], "size": int(sys.argv[2]), "sha256": sys.argv[3]}])))' \
        "$file" "$(stat -c %s "$lib/$file")" "$(sha256sum "$lib/$file" | cut -d' ' -f1)")
    forge_records "$lib" "{\"op\":\"setCompanions\",\"id\":\"$own\",\"companions\":$sidecar}" \
        "{\"op\":\"setCompanions\",\"id\":\"$own\",\"companions\":\"[]\"}"
    "$ALBUM" albums --library "$lib" >/dev/null 2>&1
    [ -n "$file" ] && [ -f "$lib/$file" ] ||
        { fail "hostile-records companion: another photo's file ($file) was removed as a companion let go"; failures=$((failures + 1)); }
    verify_ok "$lib" || failures=$((failures + 1))
    summary hostile-records "$trials" "$failures" "forged records never remove, overwrite or export a file outside the library, nor another photo's file"
}

scenario_hostile-lists() {
    echo "== hostile-lists: a planted publishing list and a shard folder that is a link out of the library"
    local base=$WORK/hostile-lists failures=0 trials=0 dir lib own name shard
    for shard in zz 3f; do
        trials=$((trials + 1))
        dir=$base/$shard lib=$dir/lib.albumlibrary
        own=$(hostile_scene "$dir") || { fail "hostile-lists $shard: the first save failed"; failures=$((failures + 1)); continue; }
        # A file outside named as a save names the library's files, and a list naming it, the
        # others and a path leading out, as a dead saver's files never recorded.
        name=$(python3 -c 'import uuid; print(uuid.uuid4())').jpg
        cp "$dir/media/hs_0001.jpg" "$dir/victim/$name"
        (cd "$dir/victim" && sha256sum "$name" >>"$dir/victim.sums")
        ln -s "$dir/victim" "$lib/originals/$shard"
        printf '%s\n' "originals/$shard/$name" "originals/$shard/victim.txt" "originals/$shard/secret.jpg" \
            "originals/../../victim/victim.txt" >"$lib/owners/p1-0123456789abcdef.publishing"
        "$ALBUM" albums --library "$lib" >/dev/null 2>&1
        outside_intact "$dir" "hostile-lists $shard (albums)" || failures=$((failures + 1))
        "$ALBUM" verify --library "$lib" >/dev/null 2>&1
        "$ALBUM" repair --library "$lib" >/dev/null 2>&1
        "$ALBUM" deleted --empty --days 0 --library "$lib" >/dev/null 2>&1
        outside_intact "$dir" "hostile-lists $shard (repair)" || failures=$((failures + 1))
        [ "$(show_hashes "$lib" Trips | cut -d' ' -f1)" = "$own" ] ||
            { fail "hostile-lists $shard: the owner's photo is not shown"; failures=$((failures + 1)); }
    done
    # owners/ itself a link out of the library, holding a dead saver's owner file and list: a save
    # writes nothing there and removes nothing; with owners/ a folder again it saves.
    trials=$((trials + 1))
    dir=$base/owners lib=$dir/lib.albumlibrary
    own=$(hostile_scene "$dir") || { fail "hostile-lists owners: the first save failed"; failures=$((failures + 1)); }
    echo "99999 0" >"$dir/victim/p99999-0123456789abcdef"
    echo "originals/3f/victim.txt" >"$dir/victim/p99999-0123456789abcdef.publishing"
    (cd "$dir/victim" && sha256sum p99999-* >>"$dir/victim.sums")
    rm -rf "$lib/owners" && ln -s "$dir/victim" "$lib/owners"
    "$ALBUM" save -q --album Trips --library "$lib" "$dir/media/hs_0001.jpg" >/dev/null 2>&1 &&
        { fail "hostile-lists owners: a save through a linked owners/ succeeded"; failures=$((failures + 1)); }
    outside_intact "$dir" "hostile-lists owners" || failures=$((failures + 1))
    [ "$(ls "$dir/victim" | wc -l)" = 4 ] ||
        { fail "hostile-lists owners: files were written through the linked owners/: $(ls "$dir/victim" | tr '\n' ' ')"; failures=$((failures + 1)); }
    rm "$lib/owners"
    "$ALBUM" save -q --album Trips --library "$lib" "$dir/media/hs_0001.jpg" >/dev/null 2>&1 ||
        { fail "hostile-lists owners: with owners/ removed the save failed"; failures=$((failures + 1)); }
    summary hostile-lists "$trials" "$failures" "a planted list removes nothing outside the library; nothing is written through a linked owners/"
}
