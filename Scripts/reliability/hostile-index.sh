# Hostile-library scenarios of Scripts/reliability.sh about the catalog's derived files (issue 41),
# sourced by it: an index or snapshot is believed only when it proves it is a prefix of this
# library's journal; one that cannot be used is set aside once and the command goes on.
#
#   hostile-index     an index copied from a `cp -a` sibling that went on differently (both ending
#                     with the same rename); the index ahead of the journal while a killed saver's
#                     publishing list names 128 acknowledged photos; a folder, FIFO or symlink where
#                     the index or its rollback journal / WAL goes; damaged/ a link out of the
#                     library or a file, then the index damaged and the journal's tail torn.
#   hostile-snapshot  one damaged page in snapshots/index.sqlite and a restart, the command repeated
#                     3 times; a snapshot copied from a `cp -a` sibling, then `repair` twice; a FIFO
#                     where the snapshot goes.

# asset_ids LIB: the asset ids `album assets --json` lists, sorted (empty when it fails or takes
# over 90 s).
asset_ids() {
    timeout 90 "$ALBUM" assets --json --library "$1" 2>/dev/null |
        grep -oE '"id":"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"' | sort -u
}

# expect_ids COUNT LABEL: $expected holds COUNT ids (a listing that fails proves nothing).
expect_ids() {
    [ "$(grep -c . <<<"$expected")" = "$1" ] || { fail "$2: the listing before the damage shows $(grep -c . <<<"$expected") photos, not $1"; failures=$((failures + 1)); }
}

# damaged_count LIB: how many things are under LIB/damaged/*/.
damaged_count() { find "$1/damaged" -mindepth 2 -maxdepth 2 2>/dev/null | wc -l; }

scenario_hostile-index() {
    local dir=$WORK/hostile-index failures=0 trials=0 mine theirs expected lib n kind name outside before
    mkdir -p "$dir"
    make_small_jpegs "$dir/media" 136 hi
    local files=("$dir"/media/hi_*.jpg)

    # 1. An index copied from a sibling copy (cp -a) that went on differently.
    trials=$((trials + 1))
    mine=$dir/mine.albumlibrary theirs=$dir/theirs.albumlibrary
    "$ALBUM" save -q --album Trip --library "$mine" "${files[@]:0:4}" >/dev/null
    cp -a "$mine" "$theirs"
    # Mine's journal ends up longer: an older build caught the sibling's index up from a place in
    # mine's journal and showed the sibling's photos.
    "$ALBUM" save -q --album Trip --library "$mine" "${files[@]:4:3}" >/dev/null
    "$ALBUM" save -q --album Trip --library "$theirs" "${files[@]:7:1}" >/dev/null
    "$ALBUM" rename --library "$mine" Trip Holiday >/dev/null
    "$ALBUM" rename --library "$theirs" Trip Holiday >/dev/null
    expected=$(asset_ids "$mine")
    rm -f "$mine"/catalog.sqlite*
    cp -a "$theirs/catalog.sqlite" "$mine/catalog.sqlite"
    if [ "$(asset_ids "$mine")" != "$expected" ] || [ "$(echo "$expected" | wc -l)" != 7 ]; then
        fail "hostile-index: the index copied from a sibling copy was believed (photos shown that the library lacks, or its own hidden)"
        failures=$((failures + 1))
    fi
    "$ALBUM" repair --library "$mine" >/dev/null 2>&1
    [ "$(asset_ids "$mine")" = "$expected" ] || { fail "hostile-index: after repair the photos differ"; failures=$((failures + 1)); }
    verify_ok "$mine" || failures=$((failures + 1))

    # 2. The index ahead of the journal while a killed saver's publishing list names 128 photos.
    trials=$((trials + 1))
    lib=$dir/ahead.albumlibrary
    "$ALBUM" save -q --album Base --library "$lib" "${files[@]:0:2}" >/dev/null
    before=$(stat -c %s "$lib/journal/library.journal")
    "$ALBUM" save -q --album Trip --library "$lib" "${files[@]:8:128}" >/dev/null
    (cd "$lib" && find originals -type f ! -name '.*') >"$lib/owners/p99999-00000000deadbeef.publishing"
    truncate -s "$before" "$lib/journal/library.journal"
    "$ALBUM" albums --library "$lib" >/dev/null 2>"$dir/ahead.err"
    n=$(originals_list "$lib" | wc -l)
    if [ "$n" != 130 ]; then
        fail "hostile-index: a plain listing with the index ahead of the journal left $n of 130 acknowledged originals"
        failures=$((failures + 1))
    fi
    grep -q "album repair" "$dir/ahead.err" && ! grep -q "Nothing was lost" "$dir/ahead.err" ||
        { fail "hostile-index: the note does not say records were lost and what repair brings back: $(head -c 300 "$dir/ahead.err")"; failures=$((failures + 1)); }
    "$ALBUM" repair --library "$lib" >/dev/null 2>&1
    n=$(asset_ids "$lib" | wc -l)
    [ "$n" = 130 ] || { fail "hostile-index: repair brought back $n of 130 photos"; failures=$((failures + 1)); }
    verify_ok "$lib" || failures=$((failures + 1))

    # 3. A folder, FIFO or symlink where the index, its rollback journal or its WAL goes.
    outside=$dir/outside.txt
    echo "not AlbumKit's" >"$outside"
    for name in catalog.sqlite catalog.sqlite-journal catalog.sqlite-wal; do
        for kind in folder fifo link; do
            trials=$((trials + 1))
            lib=$dir/nonfile-$name-$kind.albumlibrary
            "$ALBUM" save -q --album Trip --library "$lib" "${files[@]:0:3}" >/dev/null
            expected=$(asset_ids "$lib")
            expect_ids 3 "hostile-index ($kind where $name goes)"
            rm -f "$lib/$name"
            case $kind in
                folder) mkdir -p "$lib/$name/inside" ;;
                fifo) mkfifo "$lib/$name" ;;
                link) ln -s "$outside" "$lib/$name" ;;
            esac
            if [ "$(asset_ids "$lib")" != "$expected" ]; then
                fail "hostile-index: a $kind where $name goes stopped the listing (or hung)"
                failures=$((failures + 1))
            fi
            timeout 30 "$ALBUM" save -q --album Trip --library "$lib" "${files[@]:3:1}" >/dev/null 2>&1 ||
                { fail "hostile-index: a $kind where $name goes stopped a save"; failures=$((failures + 1)); }
            find "$lib/damaged" -mindepth 2 -name "$name" | grep -q . ||
                { fail "hostile-index: the $kind where $name goes was not kept under damaged/"; failures=$((failures + 1)); }
            [ "$(cat "$outside")" = "not AlbumKit's" ] ||
                { fail "hostile-index: the file a link pointed to was changed"; failures=$((failures + 1)); echo "not AlbumKit's" >"$outside"; }
        done
    done

    # 4. damaged/ a link out of the library (or a file), then the index damaged and a torn journal
    # tail: nothing is made or moved outside; the link (or file) is renamed beside damaged/, kept,
    # and the command goes on with every photo.
    for kind in link file; do
        trials=$((trials + 1))
        lib=$dir/aside-$kind.albumlibrary outside=$dir/aside-$kind-outside
        mkdir -p "$outside"
        "$ALBUM" save -q --album Trip --library "$lib" "${files[@]:0:2}" >/dev/null
        expected=$(asset_ids "$lib")
        if [ $kind = link ]; then ln -s "$outside" "$lib/damaged"; else echo x >"$lib/damaged"; fi
        head -c 5000 /dev/urandom >"$lib/catalog.sqlite"
        printf 'a torn record' >>"$lib/journal/library.journal"
        "$ALBUM" albums --library "$lib" >/dev/null 2>"$dir/aside.err" ||
            { fail "hostile-index: a $kind where damaged/ goes stopped the command: $(head -c 300 "$dir/aside.err")"; failures=$((failures + 1)); }
        [ -z "$(ls -A "$outside")" ] ||
            { fail "hostile-index: setting aside followed a $kind where damaged/ goes: $(ls "$outside")"; failures=$((failures + 1)); }
        [ -d "$lib/damaged" ] && [ ! -L "$lib/damaged" ] && ls -d "$lib"/damaged.*.not-a-folder >/dev/null 2>&1 ||
            { fail "hostile-index: the $kind where damaged/ goes was not renamed beside it"; failures=$((failures + 1)); }
        [ "$(asset_ids "$lib")" = "$expected" ] ||
            { fail "hostile-index: after setting aside beside a $kind the photos differ"; failures=$((failures + 1)); }
        verify_ok "$lib" || failures=$((failures + 1))
    done
    summary hostile-index "$trials" "$failures" "a sibling's index rebuilt, 128 originals kept with the index ahead, non-files set aside, never through a linked damaged/"
}

scenario_hostile-snapshot() {
    local dir=$WORK/hostile-snapshot failures=0 trials=0 lib mine theirs expected page start took count bytes first attempt
    mkdir -p "$dir"
    make_small_jpegs "$dir/media" 48 hs
    local files=("$dir"/media/hs_*.jpg)

    # 1. One damaged page in the snapshot, then a restart; the command repeated.
    lib=$dir/damaged.albumlibrary
    for ((page = 0; page < 40; page++)); do
        ALBUMKIT_SNAPSHOT_INTERVAL=10 "$ALBUM" save -q --album Trip --library "$lib" "${files[$page]}" >/dev/null
    done
    expected=$(asset_ids "$lib")
    expect_ids 40 "hostile-snapshot (damaged page)"
    # One page (the second, which every rebuild reads) overwritten with random bytes.
    dd if=/dev/urandom of="$lib/snapshots/index.sqlite" bs=4096 seek=1 count=1 conv=notrunc 2>/dev/null
    for attempt in 1 2 3; do
        trials=$((trials + 1))
        start=$(date +%s%N)
        count=$(ALBUMKIT_BOOT_SESSION="hostile-snapshot-$attempt" asset_ids "$lib")
        took=$((($(date +%s%N) - start) / 1000000))
        bytes=$(du -sb "$lib/damaged" 2>/dev/null | cut -f1)
        echo "  hostile-snapshot: damaged page, attempt $attempt: ${took} ms, damaged/ $(damaged_count "$lib") entries, ${bytes:-0} bytes"
        [ "$count" = "$expected" ] || { fail "hostile-snapshot: attempt $attempt did not list the 40 photos"; failures=$((failures + 1)); }
        [ "$took" -lt 10000 ] || { fail "hostile-snapshot: attempt $attempt took ${took} ms"; failures=$((failures + 1)); }
        [ "$attempt" = 1 ] && first=$bytes
        [ "$(damaged_count "$lib")" = 1 ] && [ "$bytes" = "$first" ] ||
            { fail "hostile-snapshot: damaged/ holds $(damaged_count "$lib") entries after attempt $attempt (one snapshot expected)"; failures=$((failures + 1)); }
    done
    # The same page of the index itself (written in this boot first, so that it is trusted until a
    # page fails): kept once, however often the command runs.
    "$ALBUM" albums --library "$lib" >/dev/null 2>&1
    dd if=/dev/urandom of="$lib/catalog.sqlite" bs=4096 seek=1 count=1 conv=notrunc 2>/dev/null
    for attempt in 1 2 3; do
        trials=$((trials + 1))
        start=$(date +%s%N)
        count=$(asset_ids "$lib")
        took=$((($(date +%s%N) - start) / 1000000))
        echo "  hostile-snapshot: damaged index page, attempt $attempt: ${took} ms, damaged/ $(damaged_count "$lib") entries"
        [ "$count" = "$expected" ] && [ "$took" -lt 10000 ] ||
            { fail "hostile-snapshot: with a damaged index page, attempt $attempt did not list the 40 photos in time (${took} ms)"; failures=$((failures + 1)); }
        [ "$(damaged_count "$lib")" = 2 ] ||
            { fail "hostile-snapshot: damaged/ holds $(damaged_count "$lib") entries after index attempt $attempt (the snapshot and the index expected)"; failures=$((failures + 1)); }
    done
    verify_ok "$lib" || failures=$((failures + 1))

    # 2. A snapshot copied from a cp -a sibling, a restart, then repair twice.
    trials=$((trials + 1))
    mine=$dir/mine.albumlibrary theirs=$dir/theirs.albumlibrary
    ALBUMKIT_SNAPSHOT_INTERVAL=2 "$ALBUM" save -q --album Trip --library "$mine" "${files[@]:0:2}" >/dev/null
    cp -a "$mine" "$theirs"
    for ((page = 2; page < 5; page++)); do
        ALBUMKIT_SNAPSHOT_INTERVAL=2 "$ALBUM" save -q --album Trip --library "$mine" "${files[$page]}" >/dev/null
    done
    for ((page = 5; page < 8; page++)); do
        ALBUMKIT_SNAPSHOT_INTERVAL=2 "$ALBUM" save -q --album Trip --library "$theirs" "${files[$page]}" >/dev/null
    done
    expected=$(asset_ids "$mine")
    expect_ids 5 "hostile-snapshot (sibling's snapshot)"
    cp "$theirs/snapshots/index.sqlite" "$mine/snapshots/index.sqlite"
    [ "$(ALBUMKIT_BOOT_SESSION=hostile-snapshot-copy asset_ids "$mine")" = "$expected" ] ||
        { fail "hostile-snapshot: a sibling's snapshot was believed after a restart"; failures=$((failures + 1)); }
    for attempt in 1 2; do
        "$ALBUM" repair --library "$mine" >"$dir/repair.out" 2>&1 || { fail "hostile-snapshot: repair failed"; failures=$((failures + 1)); }
        [ "$(asset_ids "$mine")" = "$expected" ] || { fail "hostile-snapshot: repair $attempt rebuilt from the sibling's snapshot"; failures=$((failures + 1)); }
    done
    "$ALBUM" albums --library "$mine" | grep -q Recovered && { fail "hostile-snapshot: repair adopted files"; failures=$((failures + 1)); }
    verify_ok "$mine" || failures=$((failures + 1))

    # 3. A FIFO where the snapshot goes, a restart, then the next snapshot.
    trials=$((trials + 1))
    rm -f "$mine/snapshots/index.sqlite"
    mkfifo "$mine/snapshots/index.sqlite"
    [ "$(ALBUMKIT_BOOT_SESSION=hostile-snapshot-fifo asset_ids "$mine")" = "$expected" ] ||
        { fail "hostile-snapshot: a FIFO where the snapshot goes stopped (or hung) the listing"; failures=$((failures + 1)); }
    ALBUMKIT_SNAPSHOT_INTERVAL=1 timeout 30 "$ALBUM" save -q --album Trip --library "$mine" "${files[@]:10:2}" >/dev/null ||
        { fail "hostile-snapshot: a save failed after the FIFO"; failures=$((failures + 1)); }
    [ -f "$mine/snapshots/index.sqlite" ] && [ ! -p "$mine/snapshots/index.sqlite" ] ||
        { fail "hostile-snapshot: no snapshot was taken after the FIFO was set aside"; failures=$((failures + 1)); }
    verify_ok "$mine" || failures=$((failures + 1))
    summary hostile-snapshot "$trials" "$failures" "a damaged snapshot page set aside once (no 60 s spin, no copy per try), a sibling's snapshot refused, a FIFO set aside"
}
