#!/usr/bin/env bash
# Reliability harness for the `album` CLI and its catalog library (issue 6).
#
#   bash Scripts/reliability.sh [--short|--full] [--release|--debug] [--keep] [--only S1,S2]
#
# --short (default, CI): 20 kill -9 trials, one 8-process race, a few of everything else; ~9 min on
#   2 shared cores.
# --full: 500 kill -9 trials, 5 races (batch and one-file-per-process), more removal trials.
# --release/--debug: which build of `album` to test (default: debug for --short, since `swift test`
#   has just built it in CI; release for --full). ALBUM_BIN=/path/to/album overrides both.
# --keep: keep the scratch directory for inspection.
# --only: run only these scenarios (kill9, race, diskfull, readonly, removed, corrupt, reset, sqlite3,
#   oldcatalog, garbled, pidns, fifo, walk, badnumbers, resave, verifyrace, fulljournal, ulimit,
#   partial, quickexit, nolib, newlib, powerloss, ackkill, shutdown, remount, journal, rebuildkill, convert, convertbad, cardcut, mirrorforge, watchkill,
#   repairrace, movekill, companionkill, companionupdate, movechange, moveself, exportrace, and the folder library's fkill9, frace, fdiskfull, freadonly, fmoved, fstaging,
#   fslash, fdelete, fcard, flinks, ffifo, fcatalog, fdrop, fforged, and the shared library's
#   sdelete, srestore, sexport, scopy, ssave, shostile, srestart, sforgedpreview, and the hostile library's hostile-index,
#   hostile-snapshot, hostile-records, hostile-lists; servekill, servecut).
#
# The catalog library (issue 27): journal/library.journal is the library; catalog.sqlite is an
# index derived from it, rebuilt when it is missing, damaged, foreign or written by another
# program, and the command goes on (one stderr note; a damaged file is kept under damaged/).
# Scenarios (a summary line each, `trials=N failures=M`; exit status 1 if any failure):
#   kill9       kill -9 a process group saving batches at random moments; after each: `album verify`
#               passes and every acknowledged (printed with --json) save is present with its SHA-256.
#   race        (race8) 8 processes x 50 saves into one new album at once: exactly one album, 400
#               assets, no error.
#   diskfull    a 4 MB tmpfs (else a loop-mounted ext4 image, else SKIP): `notEnoughSpace`, the library
#               stays consistent, earlier assets intact.
#   readonly    the library on a read-only bind mount: a clear error, nothing lost; albums, show and
#               verify work there.
#   removed     the library directory removed mid-batch: a clear error, no crash, no hang.
#   corrupt     the index overwritten with garbage, a text header, or cut to half, 1000 or 0 bytes:
#               the next save rebuilds it (one note) and goes on, the damaged file kept byte for byte
#               under damaged/ (an empty one is not kept), later commands find it whole.
#   reset       catalog.sqlite* deleted: the next save rebuilds the index ("it was missing") and goes
#               on, nothing set aside, every save there.
#   sqlite3     the sqlite3 shell reading and writing catalog.sqlite (titles, memberships, hashes,
#               the applied position, VACUUM, WAL mode, a table dropped) at random moments while 3 processes save
#               batches: no save fails, every acknowledged save is present, none of sqlite3's
#               changes is left, verify passes.
#   oldcatalog  an older copy of the index restored (more saves and a rename since): it catches up
#               silently, the renamed album holds everything, nothing set aside.
#   garbled     random 16-byte overwrites in a 300-asset index: rebuilt exactly once by the
#               commands that follow, the garbled file kept under damaged/, all saves listed; and
#               (garbled1) one 16-byte overwrite inside one asset's stored path, which only the
#               page checksums catch.
#   pidns       a saver in its own PID namespace (`unshare -p -f --mount-proc`) while another
#               process lists albums in a loop: every acknowledged save is kept.
#   fifo        a FIFO among the inputs: no hang, `fileUnreadable` for it, the rest saved.
#   walk        `album import` of a tree holding names that are not UTF-8 (a file, a folder), links
#               to a file, to a folder and to nothing, a FIFO and a folder it cannot read (run as
#               an unprivileged user): every photo is saved or named in an error, each link and the
#               FIFO is listed as skipped, the exit status is 1; nothing is passed over in silence.
#   badnumbers  a WebM whose duration is infinite among photos: all saved, in a catalog and in a
#               folder library (before, the batch failed in a catalog).
#   resave      an asset's file cut short and another deleted: saving the photos again restores them.
#   forgedpreview  a catalog's kept thumbnails cut short, replaced by text and by a link to a file
#               outside: each is made again (the link refused, never followed or written through),
#               the file outside untouched, verify healthy, `album previews` exit 0.
#   hostilevideo  clips that save but do not decode as they claim (their frames replaced by random
#               bytes or zeros, a keyframe cut out, an infinite duration, no video stream): every
#               `album thumbnail` ends within its time bound with a poster or an error naming the
#               file, never a crash or a hang; `album previews` reports each and the rest are made.
#   hostilebitmap  BMPs whose headers lie (a million pixels a side, a palette of 4e9 colours, pixels
#               past the end, unknown compression), cut short, RLE codes past the end, random damage:
#               each `album thumbnail` a JPEG or an error naming the file within 20 s, never a crash
#               or a hang; `album previews` reports each and the rest are made.
#   mirrorforge `export --delete` into a folder whose record (.albumkit-export) was forged to name a
#               file outside it (../, an absolute path), a link to it and a folder, each with the
#               victim's size and SHA-256: nothing outside is removed, the link and folder stay; a
#               photo removed from the album goes to the Trash, the user's own file stays.
#   cardcut     a card whose camera lost power mid-write (photos of 0 bytes, cut in the header, cut
#               in half) imported into a catalog and a folder library: each named with its cause and
#               counted as failed (exit 1), the whole ones saved, verify passes; once whole, the
#               next import saves them.
#   verifyrace  `album verify` in a loop during a batch: never a false problem.
#   fulljournal a batch into small disks of 54 sizes a page apart, so that at some the files fit but
#               the journal's record does not: the album holds exactly what was reported saved, every
#               failure is notEnoughSpace, verify passes.
#   ulimit      600 files under `ulimit -n 64`: all saved; a save under `ulimit -n` 7..24: saved or
#               "raise ulimit -n", never a crash or "damaged", and the library takes the next save;
#               20 saves each under 7, 9 and 15: refused before anything is made, never a crash;
#               a folder library's albums and verify under 7..16: whole, or "raise ulimit -n"; a
#               catalog whose photos are in 60 folders (debug builds) verified under 16..40:
#               healthy, or "raise ulimit -n", never a file reported for want of a descriptor.
#   partial     kill -9 with `.partial` staging (ALBUMKIT_STAGING=partial, as where O_TMPFILE is
#               missing): the next open removes every leftover, verify passes.
#   quickexit   a usage error found after the library opened, and stdout on /dev/full while photos
#               hash: exit 2 and 1, never a signal.
#   newlib      kill -9 while a save creates a new library (its catalog is built without flushes
#               and flushed once): the next save into it works and `verify` passes.
#   nolib       libsqlite3 or libcrypto unusable (another library under its name, first on
#               LD_LIBRARY_PATH): saves, verify and repair exit 1 naming the package, no new library
#               is made, what was saved is untouched; `--help` still works (libcrypto made necessary
#               with ALBUMKIT_SHA256=libcrypto). Without libcrypto on a processor with SHA
#               instructions (which hashes without it), every command works.
#   powerloss   the disk as a power loss leaves it while a save records (a debug build pauses the
#               saver at ALBUMKIT_PAUSE=before-record; the library, owners/ included, is copied
#               there): given the journal as flushed afterwards, the copy holds every acknowledged
#               save; without it, nothing of the batch (the dead saver's published files removed at
#               opening); opened in a new boot every other trial; verify passes. The saver is always
#               the debug build (only it can pause).
#   ackkill     kill -9 between a save's acknowledgement and its index commit (a debug build pauses
#               the saver at ALBUMKIT_PAUSE=after-acknowledge), alone or with another save waiting
#               for it: every acknowledged photo is shown, no file is left over, verify passes.
#   shutdown    a real file system cut off mid-save: a loop-mounted ext4 (with its journal) is shut
#               down by the EXT4_IOC_SHUTDOWN ioctl without flushing its log, at a random moment of
#               a batch, then unmounted and mounted again: what the kernel had not written is gone,
#               as after a power loss. Every acknowledged save is present with its SHA-256 and
#               verify passes (a failing trial's disk image is kept in the scratch directory).
#   remount     a loop-mounted ext4 unmounted and mounted again (same mount id and device number
#               back): the first opening rebuilds the index (it may have been torn), an opening on
#               the same mount never does, even while a folder of the disk is bound elsewhere;
#               every photo shown, verify passes.
#   journal     a torn journal tail (bytes after the last line feed) and a last line failing its
#               CRC: ignored, set aside as damaged/*/journal-tail-at-N by the next save; a garbled
#               record in the middle: saves go on, verify names it ("damaged record at byte N"),
#               repair adopts its file into "Recovered"; a middle record rewritten in place with
#               a valid CRC: verify says the journal is not the one the index was built from,
#               verify --thorough that they disagree, repair rebuilds the index from the journal;
#               the journal removed while the index is whole: written anew from the index, every
#               album and photo kept.
#   rebuildkill kill -9 a listing or a save while it rebuilds a 2000-asset index (missing, garbled,
#               last written in another boot) at a random moment: the next command works, every
#               save is intact, verify passes.
#   convertbad  a previous-release library whose catalog cannot be read and whose journal is gone:
#               its photos adopted into "Recovered" at the first opening, kill -9 mid-way finished
#               by the next opening, every photo once, verify passes.
#   convert     a library of the previous release (a v2 catalog.sqlite written by the sqlite3 shell,
#               journal/saves.jsonl, real files; a renamed and a deleted album, two saves only its
#               journal holds) converted by `album albums`, killed with kill -9 at random moments of
#               the conversion: afterwards every album, asset, membership and rename is there,
#               previous-release/ holds the old files, verify passes.
#   repairrace  `album repair` in a loop while 3 processes save: no save fails, no save recorded
#               twice, nothing adopted into "Recovered", nothing acknowledged lost, verify passes.
#   movekill    `album import --move` of a 200-photo card killed with kill -9 at random moments (a
#               catalog and a folder library in turn): every photo is on the card unchanged or in
#               the library byte for byte, never in neither; importing again finishes the move.
#   companionkill `album import` of 60 RAW+JPEG pairs with .xmp sidecars killed with kill -9 at
#               random moments (catalog and folder library in turn): verify passes, every photo
#               listed has its raw and sidecar byte for byte, none is a photo of its own; importing
#               again completes the card.
#   companionupdate `album import` again of a card whose 200 sidecars were edited (and an .AAE added
#               to each photo) killed with kill -9 at random moments (catalog and folder library in
#               turn): verify passes, every photo's sidecar is the earlier version or the new one
#               byte for byte, never neither; importing again leaves the new ones.
#   movechange  `album import --move` of 60 photos while another program appends to random card files
#               every few ms (catalog and folder library in turn): no file removed unless the
#               library holds the bytes it had then.
#   moveself    `import --move --album-by-date %Y/%m` of a folder library over itself, twice, and of
#               a card holding a catalog library: no photo lost, the inner catalog untouched.
#   exportrace  two `album export` of one 60-photo album into one folder at once: each photo once.
#   f*          kill9, race, diskfull, readonly on a folder library, the album folder moved mid-batch
#               (fmoved), the staging folder removed mid-batch (fstaging), titles whose slash carries
#               a combining mark (fslash), `delete` racing `cp` (fdelete), album folders on a
#               card mounted inside the library (fcard: saved into, renamed, kill -9), `remove`
#               of a photo whose other name is outside the library (flinks), FIFOs in place of
#               AlbumKit's own files (ffifo), folders inside a catalog (fcatalog) and a copy of a
#               later photo dropped into the album mid-batch (fdrop), album markers copied and
#               forged into another album (fforged); see
#               Scripts/reliability/folders.sh.
#   s*          a shared library (PostgreSQL + SeaweedFS, Scripts/shared-library.sh): kill -9 at
#               random moments of delete-asset (sdelete), restore (srestore), export (sexport),
#               copy into a catalog (scopy) and save (ssave); a writer's hand-made edits (shostile);
#               PostgreSQL restarted mid-save (srestart); forged kept thumbnails in the store
#               (sforgedpreview); see Scripts/reliability/shared.sh.
#   hostile-index an index copied from a `cp -a` sibling that went on differently: rebuilt, never
#               believed; the index ahead of the journal while a killed saver's publishing list
#               names 128 acknowledged photos: `album albums` keeps all 128, the note names repair,
#               repair adopts them; a folder, FIFO or symlink where the index, its rollback journal
#               or WAL goes: set aside under damaged/, no hang, the linked file untouched.
#   hostile-snapshot one damaged page in snapshots/index.sqlite and a restart, `album assets` 3
#               times: each under 10 s, damaged/ holds the one snapshot; a sibling's snapshot
#               refused after a restart and by `repair` twice; a FIFO where the snapshot goes.
#               See Scripts/reliability/hostile-index.sh.
#   hostile-records, hostile-lists
#               a catalog someone else wrote: forged journal records (hostile-records: saves,
#               companions and purges naming files outside or through links, a purge of a shown
#               photo, a re-save and an export through them) and a planted publishing list with a
#               shard folder that is a link out (hostile-lists), run through `albums`, `save`,
#               `export`, `verify`, `repair` and `deleted --empty`: nothing outside the library is
#               removed, changed or exported; see Scripts/reliability/hostile.sh.
#   servekill   `album serve` killed with SIGKILL at random moments of uploads (bytes arriving, the
#               last piece being saved), catalog and folders: verify passes, every acknowledged
#               upload is in the album with its SHA-256, the cut one whole or absent.
#   servecut    `album serve`'s uploads cut: one-request uploads closed at a random byte or reset
#               mid-body, then sent again the resumable way with appends cut and resumed (HEAD for
#               the offset), catalog and folders: every acknowledged photo in the album exactly once
#               with its SHA-256 ("already in the library" accepted when the cut one had arrived
#               whole), nothing left staged, verify passes.
#   serveshare  share links of `album serve` attacked, catalog and folders: guessed and forged
#               tokens and cookies, another library's link copied into the links file, forged
#               records (an album that is a path), a revoked link, traversal through /s/, the links
#               file replaced by a link to a file outside, 6 to 11 wrong PINs sent at once, 64
#               clients sending their headers a byte a second: nothing outside the link's album is
#               served, five PINs checked and the link locked, another address answered while the
#               slow clients still send, the file outside is untouched, verify passes.
#   servethumb  a running `album serve`'s kept thumbnail forged after the server read it back whole
#               (cut short, text, zeroed after its header, a link to a file outside), catalog and
#               folders: each is decoded again and made again, the forged bytes never served, the
#               file outside untouched, verify passes.
# Every data-safety scenario ends with: every acknowledged save is present with its SHA-256, and
# nothing in originals/ was deleted (folder library: no file the user put there was removed).
# A scenario that cannot run here (no mount or namespace rights) FAILS, unless ALBUM_ALLOW_SKIP
# names it with a reason ("readonly diskfull: no CAP_SYS_ADMIN in this container"), as .ci/run may.
set -uo pipefail

MODE=short
BUILD=""
KEEP=0
ONLY="kill9,race,diskfull,readonly,removed,corrupt,reset,sqlite3,oldcatalog,garbled,pidns,fifo,walk,badnumbers,resave,verifyrace,fulljournal,ulimit,partial,quickexit,nolib,newlib,powerloss,ackkill,shutdown,remount,journal,rebuildkill,convert,convertbad,repairrace,movekill,companionkill,companionupdate"
ONLY+=",movechange,moveself,exportrace"
ONLY+=",fkill9,frace,fdiskfull,freadonly,fmoved,fstaging,fslash,fdelete,fcard,flinks,ffifo,fcatalog,fdrop,fforged"
ONLY+=",sdelete,srestore,sexport,scopy,ssave,shostile,srestart,sforgedpreview"
ONLY+=",hostile-index,hostile-snapshot"
ONLY+=",hostile-records,hostile-lists"
ONLY+=",cardcut,mirrorforge,forgedpreview,hostilevideo,hostilebitmap"
ONLY+=",servekill,serveshare,servethumb,servecut"
ONLY+=",watchkill"
while [ $# -gt 0 ]; do
    argument=$1
    shift
    case "$argument" in
        --only)
            ONLY=${1:-}
            shift
            ;;
        --short) MODE=short ;;
        --full) MODE=full ;;
        --release) BUILD=release ;;
        --debug) BUILD=debug ;;
        --keep) KEEP=1 ;;
        -h | --help)
            sed -n '2,/^set -uo/p' "$0" | grep '^#' | sed 's/^# \{0,1\}//'
            exit 0
            ;;
        *)
            echo "reliability.sh: unknown option $argument (try --help)" >&2
            exit 2
            ;;
    esac
done
[ -n "$BUILD" ] || { [ "$MODE" = full ] && BUILD=release || BUILD=debug; }

cd "$(dirname "$0")/.."
ROOT=$PWD
export PATH="/opt/swift/usr/bin:$PATH"

if [ "$MODE" = full ]; then
    KILL_TRIALS=500 RACES=5 REMOVE_TRIALS=20 GARBLE_TRIALS=20 PIDNS_FILES=5000 PARTIAL_TRIALS=100 DAMAGE_TRIALS=5 QUICK_TRIALS=2000
else
    KILL_TRIALS=20 RACES=1 REMOVE_TRIALS=3 GARBLE_TRIALS=3 PIDNS_FILES=400 PARTIAL_TRIALS=8 DAMAGE_TRIALS=1 QUICK_TRIALS=400
fi

# ---------------------------------------------------------------------------------------------
# Build once.
if [ -n "${ALBUM_BIN:-}" ]; then
    ALBUM=$ALBUM_BIN
else
    echo "== building album ($BUILD)"
    swift build -c "$BUILD" --product album >/dev/null || {
        echo "reliability.sh: swift build failed" >&2
        exit 1
    }
    ALBUM="$(swift build -c "$BUILD" --show-bin-path)/album"
fi
[ -x "$ALBUM" ] || {
    echo "reliability.sh: no album binary at $ALBUM" >&2
    exit 1
}

WORK=$(mktemp -d "${TMPDIR:-/tmp}/album-reliability.XXXXXX")
MOUNTS=()
cleanup() {
    local mount
    for mount in "${MOUNTS[@]}"; do umount -l "$mount" 2>/dev/null; done
    # The shared-library servers the s* scenarios started (left running before).
    if [ -n "${SHARED_ENV_READY:-}" ]; then bash "$ROOT/Scripts/shared-library.sh" release $$ >/dev/null 2>&1; fi
    if [ "$KEEP" = 1 ]; then echo "scratch kept in $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT

TOTAL_FAILURES=0
SUMMARY=()
# summary NAME TRIALS FAILURES [DETAIL]
SCENARIO_START=$(date +%s)
summary() {
    local line
    line=$(printf '%-9s trials=%-4s failures=%-3s %4ss  %s' "$1" "$2" "$3" "$(($(date +%s) - SCENARIO_START))" "${4:-}")
    SUMMARY+=("$line")
    echo "SUMMARY $line"
    TOTAL_FAILURES=$((TOTAL_FAILURES + $3))
}
# skip NAME REASON: a scenario that cannot run fails, unless ALBUM_ALLOW_SKIP names it (.ci/run
# must say why).
skip() {
    if [[ " ${ALBUM_ALLOW_SKIP:-} " == *" $1 "* || " ${ALBUM_ALLOW_SKIP:-} " == *" $1:"* ]]; then
        SUMMARY+=("$(printf '%-9s SKIP (allowed: %s): %s' "$1" "${ALBUM_ALLOW_SKIP}" "$2")")
        echo "SKIP $1: $2"
    else
        SUMMARY+=("$(printf '%-9s FAILED: cannot run: %s' "$1" "$2")")
        echo "FAIL $1 cannot run: $2"
        TOTAL_FAILURES=$((TOTAL_FAILURES + 1))
    fi
}
fail() { echo "  FAIL $*"; }

# mount_image IMG MNT: mounts the file system image IMG at MNT through a loop device bound to it,
# checked to be IMG's before mounting. `mount -o loop` run by two processes at once (two harnesses
# on one machine) can mount the other's image: a shutdown trial once remounted another run's 64 MB
# disk and read a journal that was not its own. The device goes when MNT is unmounted.
mount_image() {
    local img dev attempt
    img=$(readlink -f "$1")
    for attempt in 1 2 3 4 5; do
        dev=$(losetup --find --show "$img" 2>/dev/null) || return 1
        if [ "$(losetup -n -O BACK-FILE "$dev" 2>/dev/null)" = "$img" ] && mount "$dev" "$2" 2>/dev/null; then
            losetup -d "$dev" 2>/dev/null # in use: detached once unmounted
            return 0
        fi
        losetup -d "$dev" 2>/dev/null
        sleep 0.1
    done
    return 1
}

# ---------------------------------------------------------------------------------------------
# Test media: distinct JPEGs (a unique comment segment after the start marker of a base JPEG), so
# every file has its own SHA-256 and stays a valid JPEG for the strictest validator.
BASES=()
make_bases() {
    mkdir -p "$WORK/bases"
    BASES=("$ROOT/Examples/harbour.jpg")
    if command -v convert >/dev/null 2>&1; then
        convert -size 536x536 xc:gray -seed 1 +noise Random -quality 90 "$WORK/bases/medium.jpg" &&
            BASES+=("$WORK/bases/medium.jpg" "$WORK/bases/medium.jpg" "$WORK/bases/medium.jpg")
        convert -size 1700x1700 xc:gray -seed 2 +noise Random -quality 90 "$WORK/bases/large.jpg" &&
            BASES+=("$WORK/bases/large.jpg")
    fi
}
# make_jpegs DIR COUNT PREFIX: COUNT distinct JPEGs in DIR.
make_jpegs() {
    local dir=$1 count=$2 prefix=$3 i tag length base
    mkdir -p "$dir"
    for ((i = 0; i < count; i++)); do
        base=${BASES[$((i % ${#BASES[@]}))]}
        tag="$prefix $i $RANDOM$RANDOM $(date +%s%N)"
        length=$((${#tag} + 2))
        {
            printf '\xff\xd8\xff\xfe'
            printf "\\x$(printf %02x $((length >> 8)))\\x$(printf %02x $((length & 255)))"
            printf '%s' "$tag"
            tail -c +3 "$base"
        } >"$dir/$(printf '%s_%04d.jpg' "$prefix" "$i")"
    done
}

# show_hashes LIB TITLE: "ASSET_ID SHA256" lines of the album (none if it does not exist). The JSON
# keys are sorted, so in every object "id" comes before "sha256".
show_hashes() {
    "$ALBUM" show "$2" --json --library "$1" 2>/dev/null | sed 's/},{/}\n{/g' |
        sed -n 's/.*"id":"\([^"]*\)".*"sha256":"\([^"]*\)".*/\1 \2/p'
}

# check_acknowledged LIB TITLE ACKFILE: every complete `{"asset":…,"file":…}` line of ACKFILE is in
# the album with the SHA-256 of its file. Prints problems; returns non-zero when there are any.
check_acknowledged() {
    local lib=$1 title=$2 acks=$3 tmp=$WORK/check.$$
    # Only complete lines: a line cut by a kill does not end with "}" and acknowledges nothing.
    sed -n 's/.*"asset":"\([^"]*\)".*"file":"\([^"]*\)".*}$/\1 \2/p' "$acks" >"$tmp.pairs"
    [ -s "$tmp.pairs" ] || return 0
    show_hashes "$lib" "$title" >"$tmp.stored"
    cut -d' ' -f2- "$tmp.pairs" | sort -u | tr '\n' '\0' | xargs -0 sha256sum | sed 's/  / /' >"$tmp.sources"
    awk -v stored="$tmp.stored" -v sources="$tmp.sources" '
        BEGIN {
            while ((getline line < stored) > 0) { split(line, f, " "); have[f[1]] = f[2] }
            while ((getline line < sources) > 0) { p = index(line, " "); wanted[substr(line, p + 1)] = substr(line, 1, p - 1) }
        }
        {
            asset = $1; file = substr($0, length($1) + 2)
            if (!(asset in have)) { if (++bad <= 5) print "  FAIL acknowledged asset " asset " (" file ") is missing" }
            else if (have[asset] != wanted[file]) { if (++bad <= 5) print "  FAIL asset " asset " has SHA-256 " have[asset] ", " file " has " wanted[file] }
        }
        END { if (bad > 5) print "  FAIL ... " bad " acknowledged saves missing or altered in all"; exit bad > 0 }' "$tmp.pairs"
}

# kill_saver PID ACKS: kill -9 the process group PID (a loop of saves started with setsid) and wait
# until every process of it is gone: `wait` reaps the loop's shell only, and an album it started
# may still be inside an fsync (a killed process dies when that call returns), holding its owner
# lock. Then a last line of ACKS cut by the kill is ended, so it acknowledges nothing and the next
# trial starts a new line.
kill_saver() {
    local pid=$1 acks=$2
    kill -9 -- "-$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    for _ in $(seq 300); do pgrep -g "$pid" >/dev/null || break; sleep 0.01; done
    [ -s "$acks" ] && [ "$(tail -c 1 "$acks" | od -An -c | tr -d ' ')" != '\n' ] && echo >>"$acks"
}

# verify LIB: `album verify` passes (prints its report on failure).
verify_ok() {
    local out
    if ! out=$("$ALBUM" verify --library "$1" 2>&1); then
        fail "verify $1: $(head -5 <<<"$out" | tr '\n' ' ')"
        return 1
    fi
}

# try_mount_small DIR SIZE_MB: mounts a small file system at DIR (tmpfs, else a loop ext4 image)
# and sets MOUNT_KIND; fails when neither is possible.
MOUNT_KIND=""
try_mount_small() {
    local dir=$1 size=$2
    mkdir -p "$dir"
    if mount -t tmpfs -o "size=${size}m" tmpfs "$dir" 2>/dev/null; then
        MOUNTS+=("$dir")
        MOUNT_KIND=tmpfs
        return 0
    fi
    if command -v mkfs.ext4 >/dev/null 2>&1 && truncate -s "${size}M" "$dir.img" &&
        mkfs.ext4 -q -F "$dir.img" >/dev/null 2>&1 && mount_image "$dir.img" "$dir"; then
        MOUNTS+=("$dir")
        MOUNT_KIND="loop ext4"
        return 0
    fi
    return 1
}

# resize_small DIR SIZE_MB: grows or shrinks the small file system (tmpfs only; a no-op otherwise).
resize_small() {
    [ "$MOUNT_KIND" = tmpfs ] && mount -o "remount,size=$2m" "$1" 2>/dev/null
    return 0
}

# shellcheck source=reliability/folders.sh
source "$ROOT/Scripts/reliability/folders.sh"
# shellcheck source=reliability/shared.sh
source "$ROOT/Scripts/reliability/shared.sh"
# shellcheck source=reliability/catalog.sh
source "$ROOT/Scripts/reliability/catalog.sh"
# shellcheck source=reliability/hostile-index.sh
source "$ROOT/Scripts/reliability/hostile-index.sh"
# shellcheck source=reliability/hostile.sh
source "$ROOT/Scripts/reliability/hostile.sh"

echo "== album: $ALBUM ($MODE)"
echo "== scratch: $WORK"
make_bases

# ---------------------------------------------------------------------------------------------
# kill9: a process group saving batches (1 to 40 files per `album save`) killed at random moments.
scenario_kill9() {
    echo "== kill9: $KILL_TRIALS trials"
    local pool=$WORK/kill9/pool failures=0 trial lib acks delay pid problems acked=0 epoch=-1
    make_jpegs "$pool" 60 kill
    local files=("$pool"/*.jpg)
    for ((trial = 0; trial < KILL_TRIALS; trial++)); do
        # A fresh library every 25 trials keeps `verify` (which hashes every file) quick.
        if [ $((trial / 25)) != "$epoch" ]; then
            # The finished epoch's library was checked after each of its trials: free its space.
            [ "$epoch" -ge 0 ] && rm -rf "$lib"
            epoch=$((trial / 25))
            lib=$WORK/kill9/lib-$epoch.albumlibrary
            acks=$WORK/kill9/acks-$epoch.jsonl
            : >"$acks"
        fi
        setsid bash -c '
            album=$1 lib=$2 acks=$3; shift 3; files=("$@")
            while true; do
                count=$((RANDOM % 40 + 1)) start=$((RANDOM % ${#files[@]}))
                batch=("${files[@]:start:count}")
                "$album" save --json --album Crash --library "$lib" "${batch[@]}" >>"$acks" 2>/dev/null
            done' _ "$ALBUM" "$lib" "$acks" "${files[@]}" &
        pid=$!
        delay=$(printf '0.%03d' $((RANDOM % 900 + 50)))
        sleep "$delay"
        kill_saver "$pid" "$acks"
        problems=0
        if [ -e "$lib/catalog.sqlite" ]; then
            verify_ok "$lib" || problems=$((problems + 1))
            check_acknowledged "$lib" Crash "$acks" || problems=$((problems + $?))
        elif grep -q '"asset"' "$acks"; then
            fail "trial $trial: saves were acknowledged but there is no library"
            problems=1
        fi
        if [ "$problems" -gt 0 ]; then
            fail "trial $trial (killed after ${delay}s)"
            failures=$((failures + 1))
        fi
    done
    acked=$(cat "$WORK"/kill9/acks-*.jsonl | grep -c '"asset"')
    summary kill9 "$KILL_TRIALS" "$failures" "acknowledged=$acked (all present with their SHA-256 when failures=0)"
}

# ---------------------------------------------------------------------------------------------
# race: 8 processes start at the same instant and save 50 files each into one new album.
scenario_race() {
    echo "== race: $RACES x (8 processes x 50 saves)"
    local failures=0 race worker lib pids statuses albums count created errors variant
    for ((race = 0; race < RACES; race++)); do
        # Batch: one `album save` of 50 files per process. In --full, odd races use one process per
        # file (50 sequential `album save FILE` per worker) for more album-resolution contention.
        variant=batch
        [ $((race % 2)) = 1 ] && variant=per-file
        lib=$WORK/race/lib-$race.albumlibrary
        rm -f "$WORK/race/go"
        pids=()
        for ((worker = 0; worker < 8; worker++)); do
            make_jpegs "$WORK/race/$race/w$worker" 50 "race$race-w$worker"
            (
                while [ ! -e "$WORK/race/go" ]; do sleep 0.005; done
                out=$WORK/race/$race/w$worker.out
                if [ "$variant" = batch ]; then
                    "$ALBUM" save --json --album "Race $race" --library "$lib" "$WORK/race/$race/w$worker"/*.jpg \
                        >"$out" 2>"$out.err"
                else
                    status=0
                    for file in "$WORK/race/$race/w$worker"/*.jpg; do
                        "$ALBUM" save --json --album "Race $race" --library "$lib" "$file" >>"$out" 2>>"$out.err" ||
                            status=1
                    done
                    exit $status
                fi
            ) &
            pids+=($!)
        done
        touch "$WORK/race/go"
        statuses=0
        for pid in "${pids[@]}"; do wait "$pid" || statuses=$((statuses + 1)); done
        albums=$("$ALBUM" albums --json --library "$lib" 2>/dev/null)
        # The albums titled so, and the first one's count, read as JSON (whatever else each album says).
        local assets
        read -r count assets < <(python3 -c '
import json, sys
found = [a for a in json.loads(sys.stdin.read() or "[]") if a.get("title") == sys.argv[1]]
print(len(found), found[0]["count"] if found else 0)' "Race $race" <<<"$albums")
        errors=$(cat "$WORK/race/$race"/*.out | grep -c '"error"')
        created=$(cat "$WORK/race/$race"/*.out | grep -c '"albumOutcome":"created"')
        local ok=1
        [ "$statuses" = 0 ] || { fail "race $race ($variant): $statuses processes failed: $(cat "$WORK/race/$race"/*.err | head -3)"; ok=0; }
        [ "$errors" = 0 ] || { fail "race $race ($variant): $errors error lines"; ok=0; }
        [ "$count" = 1 ] || { fail "race $race ($variant): $count albums titled 'Race $race'"; ok=0; }
        [ "${assets:-0}" = 400 ] || { fail "race $race ($variant): the album has ${assets:-0} assets, not 400"; ok=0; }
        # Only the saves of the first commit may report the album as created.
        if [ "$variant" = per-file ] && [ "$created" != 1 ]; then
            fail "race $race ($variant): $created saves report the album as created"
            ok=0
        fi
        verify_ok "$lib" || ok=0
        for ((worker = 0; worker < 8; worker++)); do
            check_acknowledged "$lib" "Race $race" "$WORK/race/$race/w$worker.out" || ok=0
        done
        # Times added rise with commits: each process's batch (one commit) is one run of the
        # listing by date added, never interleaved with another's (each process reads its clock
        # before waiting for the journal).
        local runs=8
        if [ "$variant" = batch ]; then
            runs=$("$ALBUM" assets --order added --json --library "$lib" 2>/dev/null | python3 -c '
import json, re, sys
workers = [re.sub(r"_[0-9]+[.]jpg$", "", a.get("file", "")) for a in json.load(sys.stdin)]
print(sum(1 for i, w in enumerate(workers) if i == 0 or w != workers[i - 1]))')
            [ "$runs" = 8 ] || { fail "race $race ($variant): the 8 batches are in $runs runs by date added, not 8"; ok=0; }
        fi
        [ "$ok" = 1 ] || failures=$((failures + 1))
        echo "  race $race ($variant): albums=$count assets=${assets:-0} errors=$errors created-lines=$created runs=$runs"
    done
    summary race "$RACES" "$failures" "8 processes x 50 saves each into one new album"
}

# ---------------------------------------------------------------------------------------------
# diskfull: a library on a 4 MB file system; earlier assets stay intact.
scenario_diskfull() {
    echo "== diskfull"
    local mnt=$WORK/full media=$WORK/full-media lib failures=0 trials=0 out codes attempt
    if ! try_mount_small "$mnt" 4; then
        skip diskfull "cannot mount a small file system here (no tmpfs or loop mount permission)"
        return
    fi
    lib=$mnt/lib.albumlibrary
    # The media and every output file live outside the small disk.
    make_jpegs "$media/early" 3 early
    make_jpegs "$media/many" 30 many
    # A valid MP4 bigger than the whole disk: the example clip followed by a 6 MB `free` box.
    local size=6000000
    {
        cat "$ROOT/Examples/clip.mp4"
        printf "\\x$(printf %02x $(((size >> 24) & 255)))\\x$(printf %02x $(((size >> 16) & 255)))"
        printf "\\x$(printf %02x $(((size >> 8) & 255)))\\x$(printf %02x $((size & 255)))free"
        head -c $((size - 8)) /dev/zero
    } >"$media/big.mp4"
    "$ALBUM" save --json --album Early --library "$lib" "$media/early"/*.jpg >"$media/early.out" 2>&1 || {
        fail "diskfull: could not save the first assets: $(cat "$media/early.out")"
        summary diskfull 1 1 "($MOUNT_KIND)"
        return
    }
    for attempt in batch large; do
        trials=$((trials + 1))
        if [ "$attempt" = batch ]; then
            out=$("$ALBUM" save --json --album Full --library "$lib" "$media/many"/*.jpg 2>/dev/null)
        else
            out=$("$ALBUM" save --json --album Full --library "$lib" "$media/big.mp4" 2>/dev/null)
        fi
        codes=$(grep -o '"code":"[^"]*"' <<<"$out" | cut -d'"' -f4 | sort | uniq -c | tr -s ' ' | tr '\n' ',')
        echo "  $attempt: $(grep -c '"asset"' <<<"$out") saved, error codes: ${codes:-none}"
        local ok=1
        grep -q '"code":"notEnoughSpace"' <<<"$out" || { fail "diskfull $attempt: no notEnoughSpace error"; ok=0; }
        if grep -o '"code":"[^"]*"' <<<"$out" | grep -vq notEnoughSpace; then
            fail "diskfull $attempt: other error codes than notEnoughSpace: $codes"
            ok=0
        fi
        # Verify needs a little room for SQLite's shared memory: grow the disk, check, shrink it back.
        resize_small "$mnt" 64
        verify_ok "$lib" || ok=0
        check_acknowledged "$lib" Early "$media/early.out" || ok=0
        grep '"asset"' <<<"$out" >"$media/acks.out"
        grep '"asset"' <<<"$out" >>"$media/acks-all.out"
        check_acknowledged "$lib" Full "$media/acks.out" || ok=0
        # Nothing reported failed is in the album (before: saves whose journal record hit the full
        # disk were reported failed, yet committed into the album).
        local held acked
        held=$(show_hashes "$lib" Full | wc -l)
        acked=$(sed -n 's/.*"asset":"\([^"]*\)".*/\1/p' "$media/acks-all.out" | sort -u | wc -l)
        [ "$held" = "$acked" ] || { fail "diskfull $attempt: the album holds $held photos, $acked were reported saved"; ok=0; }
        resize_small "$mnt" 4
        [ "$ok" = 1 ] || failures=$((failures + 1))
    done
    summary diskfull "$trials" "$failures" "($MOUNT_KIND, 4 MB)"
}

# fulljournal: the disk fills up at every point of a 40-photo batch (small disks of 54 sizes, a page apart), so
# that in some the photos fit but the journal's record does not (before: reported failed, yet
# committed into the album).
scenario_fulljournal() {
    echo "== fulljournal"
    local mnt=$WORK/fj media=$WORK/fj-media lib failures=0 trials=0 kb out held acked saved saved_bases
    if ! try_mount_small "$mnt" 4; then
        skip fulljournal "cannot mount a small file system here (no tmpfs or loop mount permission)"
        return
    fi
    if [ "$MOUNT_KIND" != tmpfs ]; then
        skip fulljournal "needs a tmpfs to resize (only a loop-mounted ext4 here)"
        return
    fi
    saved_bases=("${BASES[@]}")
    [ -f "$WORK/bases/medium.jpg" ] && BASES=("$WORK/bases/medium.jpg")
    make_jpegs "$media" 40 fj
    BASES=("${saved_bases[@]}")
    # One size every 4 KB (a page) across one photo's worth of disk (~210 KB), so that one of them
    # leaves room for the photos and the catalog's commit but not for the journal's record.
    for ((kb = 2600; kb <= 2812; kb += 4)); do
        trials=$((trials + 1))
        rm -rf "$mnt/lib.albumlibrary"
        resize_small "$mnt" 64
        lib=$mnt/lib.albumlibrary
        "$ALBUM" save --library "$lib" "$ROOT/Examples/harbour.jpg" >/dev/null 2>&1
        mount -o "remount,size=${kb}k" "$mnt" || { fail "fulljournal: cannot resize the tmpfs to ${kb} KB"; failures=$((failures + 1)); continue; }
        out=$("$ALBUM" save --json --album Full --library "$lib" "$media"/*.jpg 2>/dev/null)
        resize_small "$mnt" 64
        saved=$(grep -c '"asset"' <<<"$out")
        held=$(show_hashes "$lib" Full | wc -l)
        acked=$(sed -n 's/.*"asset":"\([^"]*\)".*/\1/p' <<<"$out" | sort -u | wc -l)
        local ok=1
        [ "$held" = "$acked" ] || { fail "fulljournal ${kb}k: the album holds $held photos, $acked were reported saved"; ok=0; }
        grep -o '"code":"[^"]*"' <<<"$out" | grep -vq notEnoughSpace && { fail "fulljournal ${kb}k: other error codes than notEnoughSpace"; ok=0; }
        verify_ok "$lib" || ok=0
        grep '"asset"' <<<"$out" >"$media.acks"
        check_acknowledged "$lib" Full "$media.acks" || ok=0
        [ "$ok" = 1 ] || echo "  ${kb} KB: $saved saved, album holds $held"
        [ "$ok" = 1 ] || failures=$((failures + 1))
    done
    summary fulljournal "$trials" "$failures" "($MOUNT_KIND) a 40-photo batch into disks of 2600-2812 KB: the album holds what was reported saved"
}

# ---------------------------------------------------------------------------------------------
# readonly: the library on a read-only bind mount.
scenario_readonly() {
    echo "== readonly"
    local dir=$WORK/ro lib failures=0 out status
    lib=$dir/lib.albumlibrary
    make_jpegs "$WORK/ro-media" 4 ro
    mkdir -p "$dir"
    "$ALBUM" save --json --album Kept --library "$lib" "$WORK/ro-media"/ro_000{0,1,2}.jpg >"$WORK/ro-early.out" 2>&1
    if ! { mount --bind "$dir" "$dir" 2>/dev/null && MOUNTS+=("$dir") && mount -o remount,bind,ro "$dir" 2>/dev/null; }; then
        skip readonly "cannot make a read-only bind mount here"
        return
    fi
    out=$("$ALBUM" save --json --album Kept --library "$lib" "$WORK/ro-media/ro_0003.jpg" 2>"$WORK/ro.err")
    status=$?
    local code
    code=$(grep -o '"code":"[^"]*"' <<<"$out" | head -1 | cut -d'"' -f4)
    echo "  save into a read-only library: exit $status, code ${code:-none}: $(head -1 "$WORK/ro.err")"
    case "$code" in
        libraryUnwritable | accessDenied) ;;
        *) fail "readonly: expected libraryUnwritable, got '${code:-none}' (exit $status)"; failures=1 ;;
    esac
    [ "$status" = 1 ] || { fail "readonly: exit status $status"; failures=1; }
    # A read-only library (a backup disk) can still be listed, shown and verified.
    local listed
    listed=$("$ALBUM" albums --json --library "$lib" 2>"$WORK/ro-list.err")
    if grep -q '"title":"Kept"' <<<"$listed"; then
        echo "  listing albums of the read-only library: works"
    else
        fail "readonly: albums on the read-only library: $(head -1 "$WORK/ro-list.err")"; failures=1
    fi
    if ! "$ALBUM" show Kept --library "$lib" >/dev/null 2>"$WORK/ro-show.err"; then
        fail "readonly: show on the read-only library: $(head -1 "$WORK/ro-show.err")"; failures=1
    fi
    if ! "$ALBUM" verify --library "$lib" >/dev/null 2>"$WORK/ro-verify.err"; then
        fail "readonly: verify on the read-only library: $(head -1 "$WORK/ro-verify.err")"; failures=1
    fi
    umount "$dir"
    verify_ok "$lib" || failures=1
    check_acknowledged "$lib" Kept "$WORK/ro-early.out" || failures=1
    summary readonly 1 "$failures" "error=${code:-none}"
}

# ---------------------------------------------------------------------------------------------
# removed: the library directory removed while a batch is being saved.
scenario_removed() {
    echo "== removed: $REMOVE_TRIALS trials"
    local failures=0 trial lib pid status out codes lines hit=0 unclear=0
    make_jpegs "$WORK/rm-media" 600 rm
    for ((trial = 0; trial < REMOVE_TRIALS; trial++)); do
        lib=$WORK/rm/lib-$trial.albumlibrary
        mkdir -p "$WORK/rm"
        "$ALBUM" save --album Gone --library "$lib" "$ROOT/Examples/harbour.jpg" >/dev/null 2>&1
        # Under an open-file limit of 1 248 a chunk holds at most 300 photos (the saver keeps two
        # chunks' files open), so the 600 are two chunks, as they would be in a larger batch.
        (ulimit -n 1248 2>/dev/null; exec timeout 120 "$ALBUM" save --json --album Gone --library "$lib" "$WORK/rm-media"/*.jpg) \
            >"$WORK/rm/$trial.out" 2>"$WORK/rm/$trial.err" &
        pid=$!
        # Remove it once the batch has published files (its first chunk is being committed), plus
        # a random 0-9 ms, so the removal lands in the middle of the batch: 600 photos are two
        # chunks here; the removal reaches the first chunk's commit or the second chunk's staging.
        local waited=0
        while [ "$(find "$lib/originals" -type f 2>/dev/null | head -2 | wc -l)" -lt 2 ] &&
            [ "$waited" -lt 3000 ] && kill -0 "$pid" 2>/dev/null; do
            sleep 0.005
            waited=$((waited + 5))
        done
        sleep "0.00$((RANDOM % 10))"
        rm -rf "$lib"
        wait "$pid"
        status=$?
        out=$(cat "$WORK/rm/$trial.out")
        lines=$(grep -c '"file"' <<<"$out")
        codes=$(grep -o '"code":"[^"]*"' <<<"$out" | cut -d'"' -f4 | sort | uniq -c | tr -s ' ' | tr '\n' ',')
        echo "  trial $trial: exit $status, $(grep -c '"asset"' <<<"$out") saved, error codes: ${codes:-none}"
        local ok=1
        if [ "$status" -ge 124 ]; then
            fail "removed trial $trial: crashed or hung (exit $status): $(tail -3 "$WORK/rm/$trial.err")"
            ok=0
        elif [ "$status" = 0 ]; then
            # Every save finished before the removal: nothing to check, not a failure.
            :
        else
            hit=$((hit + 1))
            [ "$lines" = 600 ] || { fail "removed trial $trial: $lines result lines for 600 files"; ok=0; }
            grep -q '"code"' <<<"$out" || { fail "removed trial $trial: failed without an error code"; ok=0; }
            # libraryNotFound is the clear answer; another AlbumError code is noted, not failed (the
            # removal races with the saver's own directory operations).
            if grep -o '"code":"[^"]*"' <<<"$out" | grep -vqE 'libraryNotFound'; then
                echo "  note: removed trial $trial: codes other than libraryNotFound: $codes"
                unclear=$((unclear + 1))
            fi
            [ -s "$WORK/rm/$trial.err" ] || { fail "removed trial $trial: nothing on stderr"; ok=0; }
        fi
        [ "$ok" = 1 ] || failures=$((failures + 1))
    done
    if [ "$hit" = 0 ]; then
        fail "removed: the removal never hit a running batch in $REMOVE_TRIALS trials"
        failures=$((failures + 1))
    fi
    summary removed "$REMOVE_TRIALS" "$failures" \
        "removal hit a running batch in $hit trials; other codes than libraryNotFound in $unclear"
}

# ---------------------------------------------------------------------------------------------
# Helpers of the catalog scenarios (Scripts/reliability/catalog.sh, and others).

# originals_list LIB: every file under LIB/originals (relative paths), sorted.
originals_list() { (cd "$1" && find originals -type f ! -name '.*' 2>/dev/null | sort); }

# kept_originals BEFORE LIB: every file listed in BEFORE is still in LIB/originals.
kept_originals() {
    local missing
    missing=$(comm -23 "$1" <(originals_list "$2") | wc -l)
    [ "$missing" = 0 ] || { fail "$missing file(s) of originals/ were deleted"; return 1; }
}

# save_batch LIB TITLE ACKFILE FILES...: one `album save --json` batch, output appended to ACKFILE.
save_batch() {
    local lib=$1 title=$2 acks=$3
    shift 3
    "$ALBUM" save --json --album "$title" --library "$lib" "$@" >>"$acks" 2>/dev/null
}

# ---------------------------------------------------------------------------------------------
# pidns: a saver in its own PID namespace while another process opens the library in a loop
# (each open runs recovery, which must never take the living saver for dead).
scenario_pidns() {
    echo "== pidns: $PIDNS_FILES files"
    local dir=$WORK/pidns lib=$WORK/pidns/lib.albumlibrary reader status acked bad=0 opens
    if ! unshare -p -f --mount-proc true 2>/dev/null; then
        skip pidns "cannot create a PID namespace here (unshare -p needs CAP_SYS_ADMIN)"
        return
    fi
    make_jpegs "$dir/media" "$PIDNS_FILES" pidns
    "$ALBUM" create Start --library "$lib" >/dev/null
    (
        opens=0
        while [ ! -e "$dir/stop" ]; do
            "$ALBUM" albums --library "$lib" >/dev/null 2>&1
            opens=$((opens + 1))
        done
        echo "$opens" >"$dir/opens"
    ) &
    reader=$!
    unshare -p -f --mount-proc "$ALBUM" save --json --album Namespace --library "$lib" "$dir/media"/*.jpg \
        >"$dir/acks" 2>"$dir/err"
    status=$?
    touch "$dir/stop"
    wait "$reader"
    acked=$(grep -c '"asset"' "$dir/acks")
    opens=$(cat "$dir/opens" 2>/dev/null || echo 0)
    echo "  saver exit $status, $acked acknowledged, $opens opens by the other process meanwhile"
    [ "$status" = 0 ] || { fail "pidns: the saver failed: $(head -3 "$dir/err")"; bad=1; }
    [ "$acked" = "$PIDNS_FILES" ] || { fail "pidns: $acked of $PIDNS_FILES acknowledged"; bad=1; }
    [ "$opens" -gt 0 ] || { fail "pidns: the other process never opened the library"; bad=1; }
    verify_ok "$lib" || bad=1
    check_acknowledged "$lib" Namespace "$dir/acks" || bad=1
    summary pidns 1 "$bad" "$PIDNS_FILES saves in a PID namespace, $opens concurrent opens"
}

# ---------------------------------------------------------------------------------------------
# fifo: a FIFO (and a device) among the inputs must not hang the batch.
scenario_fifo() {
    echo "== fifo"
    local dir=$WORK/fifo lib=$WORK/fifo/lib.albumlibrary status out bad=0
    make_jpegs "$dir/media" 3 fifo
    mkfifo "$dir/pipe"
    timeout 60 "$ALBUM" save --json --album Fifo --library "$lib" "$dir/pipe" "$dir/media"/*.jpg /dev/zero \
        >"$dir/out" 2>"$dir/err"
    status=$?
    out=$(cat "$dir/out")
    echo "  exit $status, $(grep -c '"asset"' <<<"$out") saved"
    [ "$status" = 1 ] || { fail "fifo: exit $status (124: hung)"; bad=1; }
    [ "$(grep -c '"code":"fileUnreadable"' <<<"$out")" = 2 ] || { fail "fifo: the FIFO and the device are not fileUnreadable: $out"; bad=1; }
    [ "$(grep -c '"asset"' <<<"$out")" = 3 ] || { fail "fifo: the other files were not saved"; bad=1; }
    check_acknowledged "$lib" Fifo "$dir/out" || bad=1
    summary fifo 1 "$bad" "a FIFO and /dev/zero among 3 photos"
}

# walk: everything under an imported folder is saved or reported; before, names that are not UTF-8,
# links and unreadable folders were left out without a word and the import exited 0.
scenario_walk() {
    echo "== walk"
    local dir=$WORK/walk tree lib out err status bad=0 as=()
    tree=$dir/tree lib=$dir/lib.albumlibrary
    make_jpegs "$dir/media" 6 walk
    mkdir -p "$tree/real" "$tree/locked" "$tree"/$'odd\xffdir'
    cp "$dir/media/walk_0000.jpg" "$tree"/$'bad\xfe\xff.jpg'
    cp "$dir/media/walk_0001.jpg" "$tree"/$'odd\xffdir/in.jpg'
    cp "$dir/media/walk_0002.jpg" "$tree/ok.jpg"
    cp "$dir/media/walk_0003.jpg" "$tree/real/r.jpg"
    cp "$dir/media/walk_0004.jpg" "$tree/locked/l.jpg"
    cp "$dir/media/walk_0005.jpg" "$dir/target.jpg"
    ln -s "$dir/target.jpg" "$tree/linked.jpg"
    ln -s real "$tree/linkdir"
    ln -s nowhere.jpg "$tree/broken.jpg"
    mkfifo "$tree/pipe.jpg"
    chmod 000 "$tree/locked"
    # root reads any folder: the import runs as nobody when it can, in a folder nobody may write.
    if [ "$(id -u)" = 0 ]; then
        command -v setpriv >/dev/null || { skip walk "no setpriv to drop root's right to read any folder"; return; }
        chmod o+x "$WORK"
        chmod 755 "$dir" "$tree" "$tree/real" "$tree"/$'odd\xffdir'
        chmod 644 "$tree"/*.jpg "$tree/real/r.jpg" "$tree"/$'odd\xffdir/in.jpg' "$dir/target.jpg" 2>/dev/null
        mkdir -p "$dir/out" && chmod 777 "$dir/out"
        lib=$dir/out/lib.albumlibrary
        as=(setpriv --reuid=65534 --regid=65534 --clear-groups)
        "${as[@]}" test -x "$ALBUM" || { skip walk "user nobody cannot run $ALBUM"; return; }
    fi
    out=$dir/import.json err=$dir/import.err
    timeout 120 "${as[@]}" "$ALBUM" import -v --json --album Walk --library "$lib" "$tree" >"$out" 2>"$err"
    status=$?
    echo "  exit $status, $(grep -c '"asset"' "$out") saved, $(grep -c '"skipped"' "$out") skipped"
    [ "$status" = 1 ] || { fail "walk: exit $status, expected 1 (the unreadable folder)"; bad=1; }
    # saved: bad\xfe\xff.jpg, odd\xffdir/in.jpg, ok.jpg, real/r.jpg, linked.jpg
    [ "$(grep -c '"asset"' "$out")" = 5 ] || { fail "walk: $(grep -c '"asset"' "$out") saved, expected 5"; bad=1; }
    grep -q '"file":"[^"]*broken.jpg","skipped":"brokenLink"' "$out" || { fail "walk: the broken link is not listed"; bad=1; }
    grep -q '"file":"[^"]*linkdir","skipped":"linkToFolder"' "$out" || { fail "walk: the link to a folder is not listed"; bad=1; }
    grep -q '"file":"[^"]*pipe.jpg","skipped":"notMedia"' "$out" || { fail "walk: the FIFO is not listed"; bad=1; }
    if [ ${#as[@]} -gt 0 ] || [ "$(id -u)" != 0 ]; then
        grep -q '"code":"fileUnreadable".*locked' "$out" || { fail "walk: the unreadable folder is not named"; bad=1; }
    fi
    chmod 755 "$tree/locked"
    # The album holds exactly the five photos' bytes (names that are not UTF-8 cannot be matched
    # by their JSON name, so the check is by content).
    local stored wanted
    stored=$(show_hashes "$lib" Walk | cut -d' ' -f2 | sort | tr '\n' ' ')
    wanted=$(sha256sum "$dir"/media/walk_000[0-3].jpg "$dir/media/walk_0005.jpg" | cut -d' ' -f1 | sort | tr '\n' ' ')
    [ "$stored" = "$wanted" ] || { fail "walk: the album holds [$stored], expected [$wanted]"; bad=1; }
    # The JSON gives the exact bytes of a name that is not UTF-8 (fileBytes, base64).
    grep -o '"fileBytes":"[^"]*"' "$out" | cut -d'"' -f4 | while read -r encoded; do
        [ -f "$(base64 -d <<<"$encoded")" ] || echo "  FAIL walk: fileBytes $encoded names no file"
    done | grep . && bad=1
    [ "$(grep -c '"fileBytes"' "$out")" = 2 ] || { fail "walk: $(grep -c '"fileBytes"' "$out") fileBytes, expected 2"; bad=1; }
    # Many sibling folders under a low open-file limit: the walk holds one folder open at a time
    # (before: every folder waiting its turn, so 1 500 of them failed past `ulimit -n 1024`).
    local wide=$dir/wide i
    for ((i = 0; i < 400; i++)); do mkdir -p "$wide/d$i" && ln "$dir/media/walk_0000.jpg" "$wide/d$i/p.jpg"; done
    out=$( (ulimit -n 64 && "$ALBUM" import --dry-run --library "$dir/wide.albumlibrary" "$wide") 2>&1 | tail -1)
    # One photo in 400 folders (hard links): one would be saved, the other 399 are the same photo.
    [[ "$out" == *"1 would be saved, 399 already in the library"* ]] || { fail "walk: 400 sibling folders under ulimit -n 64: $out"; bad=1; }
    summary walk 1 "$bad" "odd names, links, a FIFO, an unreadable folder: saved or reported, exit 1; 400 folders under ulimit -n 64"
}

# badnumbers: a video whose header holds a number no file can mean (a WebM whose duration is
# infinite in seconds) among photos. Before, it failed every save of its batch in a catalog.
make_infinite_webm() {
    python3 - "$1" <<'PY'
import struct, sys
def element(ident, payload):
    return ident + struct.pack(">Q", len(payload) | 1 << 56) + payload
def uint(ident, value):
    return element(ident, struct.pack(">Q", value))
info = element(b"\x15\x49\xa9\x66", uint(b"\x2a\xd7\xb1", 1000000) + element(b"\x44\x89", struct.pack(">d", 1e308)))
video = element(b"\xe0", uint(b"\xb0", 64) + uint(b"\xba", 48))
tracks = element(b"\x16\x54\xae\x6b", element(b"\xae", uint(b"\x83", 1) + video))
header = element(b"\x1a\x45\xdf\xa3", element(b"\x42\x82", b"webm"))
open(sys.argv[1], "wb").write(header + element(b"\x18\x53\x80\x67", info + tracks))
PY
}
scenario_badnumbers() {
    echo "== badnumbers"
    local dir=$WORK/badnumbers status kind lib saved bad=0
    make_jpegs "$dir/media" 2 numbers
    make_infinite_webm "$dir/media/long.webm" || { fail "badnumbers: cannot write the WebM"; bad=1; }
    mkdir -p "$dir/folders"
    for kind in catalog folders; do
        [ "$kind" = catalog ] && lib=$dir/lib.albumlibrary || lib=$dir/folders
        timeout 60 "$ALBUM" save --json --album Numbers --library "$lib" "$dir/media"/* >"$dir/$kind.out" 2>"$dir/$kind.err"
        status=$?
        saved=$(grep -c '"asset"' "$dir/$kind.out")
        echo "  $kind: exit $status, $saved of 3 saved"
        [ "$status" = 0 ] && [ "$saved" = 3 ] || { fail "badnumbers ($kind): exit $status, $saved of 3 saved: $(head -3 "$dir/$kind.err")"; bad=1; }
        verify_ok "$lib" || bad=1
    done
    check_acknowledged "$dir/lib.albumlibrary" Numbers "$dir/catalog.out" || bad=1
    folder_acks_ok "$dir/folders.out" "$dir/folders/Numbers" || bad=1
    summary badnumbers 2 "$bad" "a WebM whose duration is infinite, among 2 photos: all saved (catalog, folders)"
}

# resave: an asset's file cut short, another deleted; saving the same photos again restores both
# (before: "already there", exit 0, nothing stored, and repair called the library healthy).
scenario_resave() {
    echo "== resave"
    local dir=$WORK/resave lib=$WORK/resave/lib.albumlibrary files status bad=0
    make_jpegs "$dir/media" 4 resave
    "$ALBUM" save --json --album Keep --library "$lib" "$dir/media"/*.jpg >"$dir/first" 2>&1 || { fail "resave: first save failed"; bad=1; }
    mapfile -t files < <(cd "$lib" && find originals -type f ! -name '.*' | sort)
    truncate -s 1000 "$lib/${files[0]}"
    rm -f "$lib/${files[1]}"
    "$ALBUM" verify --library "$lib" >"$dir/verify" 2>&1 && { fail "resave: verify missed the damage"; bad=1; }
    grep -q "save the photo again" "$dir/verify" || { fail "resave: verify does not say how to restore: $(head -2 "$dir/verify")"; bad=1; }
    "$ALBUM" save --json --album Again --library "$lib" "$dir/media"/*.jpg >"$dir/again" 2>"$dir/err"
    status=$?
    [ "$status" = 0 ] || { fail "resave: exit $status: $(head -2 "$dir/err")"; bad=1; }
    verify_ok "$lib" || bad=1
    check_acknowledged "$lib" Keep "$dir/first" || bad=1
    check_acknowledged "$lib" Again "$dir/again" || bad=1
    # Exactly the two damaged ones are reported restored; the two intact ones as already there.
    [ "$(grep -c '"restored":true' "$dir/again")" = 2 ] || { fail "resave: not exactly 2 saves reported restored: $(cat "$dir/again")"; bad=1; }
    [ "$(grep -c '"existing":true' "$dir/again")" = 4 ] || { fail "resave: not all 4 saves reported as existing assets"; bad=1; }
    [ "$(find "$lib/damaged/originals" -type f | wc -l)" = 1 ] || { fail "resave: the damaged file was not kept in damaged/originals"; bad=1; }
    summary resave 1 "$bad" "a file cut short and one deleted: saving the photos again restores both, reported restored"
}

# verifyrace: `album verify` in a loop while a batch saves into the same catalog (before: about one
# in five reported a reset catalog and said to run repair).
scenario_verifyrace() {
    echo "== verifyrace"
    local dir=$WORK/verifyrace lib=$WORK/verifyrace/lib.albumlibrary saver runs=0 alarms=0 bad=0
    make_jpegs "$dir/media" 600 race
    "$ALBUM" save --library "$lib" "$dir/media/race_0000.jpg" >/dev/null 2>&1
    "$ALBUM" save --json --album Busy --library "$lib" "$dir/media"/*.jpg >"$dir/acks" 2>&1 &
    saver=$!
    while kill -0 "$saver" 2>/dev/null; do
        "$ALBUM" verify --library "$lib" >"$dir/verify" 2>&1 || { alarms=$((alarms + 1)); cp "$dir/verify" "$dir/alarm"; }
        runs=$((runs + 1))
    done
    wait "$saver" || { fail "verifyrace: the save failed"; bad=1; }
    echo "  $runs verifies during the save, $alarms reported a problem"
    [ "$runs" -gt 0 ] || { fail "verifyrace: no verify ran during the save"; bad=1; }
    [ "$alarms" = 0 ] || { fail "verifyrace: $alarms of $runs verifies reported a problem: $(head -2 "$dir/alarm")"; bad=1; }
    verify_ok "$lib" || bad=1
    check_acknowledged "$lib" Busy "$dir/acks" || bad=1
    summary verifyrace "$runs" "$alarms" "verify in a loop during a 600-photo save: no false alarm"
}

# ulimit: 600 files with at most 64 open files (soft = hard, so raising cannot help).
scenario_ulimit() {
    echo "== ulimit"
    local dir=$WORK/ulimit lib=$WORK/ulimit/lib.albumlibrary status acked bad=0
    make_jpegs "$dir/media" 600 many
    (
        ulimit -n 64
        "$ALBUM" save --json --album Many --library "$lib" "$dir/media"/*.jpg
    ) >"$dir/out" 2>"$dir/err"
    status=$?
    acked=$(grep -c '"asset"' "$dir/out")
    echo "  exit $status, $acked of 600 saved"
    [ "$status" = 0 ] && [ "$acked" = 600 ] || { fail "ulimit: exit $status, $acked saved: $(head -2 "$dir/err")"; bad=1; }
    check_acknowledged "$lib" Many "$dir/out" || bad=1
    # Tiny limits, each into a new library: saved, or exit 1 saying to raise `ulimit -n`; never a
    # crash, never "damaged" (a failed listing of originals/ once read as a library holding photos);
    # the same library then takes the save under a normal limit.
    local limit tiny
    # (From 7: under 6 and fewer, libdispatch itself can abort at start when its eventfd fails.)
    for limit in 7 8 9 10 11 12 13 14 16 20 24; do
        tiny=$dir/tiny-$limit.albumlibrary
        (
            ulimit -n "$limit"
            "$ALBUM" save --album Tiny --library "$tiny" "$dir/media/many_0000.jpg" "$dir/media/many_0001.jpg"
        ) >"$dir/out" 2>"$dir/err"
        status=$?
        if [ "$status" != 0 ] && { [ "$status" != 1 ] || ! grep -q 'ulimit -n' "$dir/err" || grep -q damaged "$dir/err"; }; then
            fail "ulimit: under ulimit -n $limit exit $status: $(head -c 300 "$dir/err")"
            bad=1
        fi
        "$ALBUM" save --album Tiny --library "$tiny" "$dir/media/many_0002.jpg" >/dev/null 2>"$dir/err" || {
            fail "ulimit: after ulimit -n $limit the library refused a save: $(head -c 300 "$dir/err")"
            bad=1
        }
        verify_ok "$tiny" || bad=1
    done
    # Below 16, every library command is refused before it opens anything, every time: before,
    # libdispatch stopped the release `album` (SIGILL) in about 1 save in 8 at 7, when the save's
    # own files held every descriptor at the moment libdispatch needed one.
    local low=$dir/low.albumlibrary run
    for limit in 7 9 15; do
        for run in $(seq 1 20); do
            (ulimit -n "$limit" && "$ALBUM" save --album Low --library "$low" "$dir/media/many_0000.jpg") \
                >/dev/null 2>"$dir/err"
            status=$?
            if [ "$status" != 1 ] || ! grep -q 'raise `ulimit -n` to 16' "$dir/err" || [ -e "$low" ]; then
                fail "ulimit: under ulimit -n $limit (run $run) exit $status, library made: $([ -e "$low" ] && echo yes || echo no): $(head -c 300 "$dir/err")"
                bad=1
                break
            fi
        done
    done
    # A folder library read under tiny limits: the whole answer or "raise ulimit -n", never a
    # partial one ("No albums." with exit 0 once; folders reported as problems by verify).
    local folders=$dir/folders command output
    mkdir -p "$folders"
    for album in A B C D E; do
        "$ALBUM" save --folders --album "$album" --library "$folders" "$dir/media/many_0000.jpg" >/dev/null 2>&1
    done
    for limit in 7 8 9 10 11 12 14 16; do
        for command in albums verify; do
            output=$( (ulimit -n "$limit" && "$ALBUM" --folders --library "$folders" "$command") 2>&1)
            status=$?
            if [ "$status" = 0 ]; then
                if [ "$command" = albums ] && [ "$(grep -cE ' (A|B|C|D|E)$' <<<"$output")" != 5 ]; then
                    fail "ulimit: folder albums under ulimit -n $limit listed: $output"
                    bad=1
                fi
            elif [ "$status" != 1 ] || ! grep -q 'ulimit -n' <<<"$output"; then
                fail "ulimit: folder $command under ulimit -n $limit exit $status: $(head -c 300 <<<"$output")"
                bad=1
            fi
        done
    done
    # A catalog whose photos are in many folders, verified under small limits: healthy, or "raise
    # ulimit -n"; never a file reported for want of a descriptor (verify kept every folder it had
    # read in open, 173 of them at a million photos). A save's folder follows the clock (16 s a
    # folder): debug builds are given one 17 s later for each save.
    local spread=$dir/spread.albumlibrary n
    for n in $(seq 100 159); do
        ALBUMKIT_NOW=$((1800000000 + 17 * n)) "$ALBUM" save --quiet --album Spread --library "$spread" \
            "$dir/media/many_0$n.jpg" >/dev/null 2>&1 || { fail "ulimit: lone save $n failed"; bad=1; }
    done
    echo "  $(find "$spread/originals" -mindepth 1 -maxdepth 1 -type d | wc -l) folders of originals/ for 60 photos"
    for limit in 16 20 24 32 40; do
        output=$( (ulimit -n "$limit" && "$ALBUM" --library "$spread" verify) 2>&1)
        status=$?
        if [ "$status" != 0 ] && { [ "$status" != 1 ] || grep -q '^problem' <<<"$output" || ! grep -q 'ulimit -n' <<<"$output"; }; then
            fail "ulimit: catalog verify under ulimit -n $limit exit $status: $(head -c 300 <<<"$output")"
            bad=1
        fi
    done
    summary ulimit 1 "$bad" "600 files under ulimit -n 64; a save under ulimit -n 7..24, then a normal one; 60 saves under 7, 9, 15 refused up front; folder reads 7..16; a catalog's photos in many folders verified under 16..40"
}

# partial: kill -9 savers that stage into hidden `.partial` files (no O_TMPFILE).
scenario_partial() {
    echo "== partial: $PARTIAL_TRIALS trials"
    local pool=$WORK/partial/pool lib=$WORK/partial/lib.albumlibrary acks=$WORK/partial/acks failures=0 trial pid
    local delay leftovers seen=0 bad i
    make_jpegs "$pool" 40 partial
    local files=("$pool"/*.jpg)
    : >"$acks"
    for ((trial = 0; trial < PARTIAL_TRIALS; trial++)); do
        bad=0
        ALBUMKIT_STAGING=partial setsid bash -c '
            album=$1 lib=$2 acks=$3; shift 3
            while true; do "$album" save --json --album Partial --library "$lib" "$@" >>"$acks" 2>/dev/null; done' \
            _ "$ALBUM" "$lib" "$acks" "${files[@]}" &
        pid=$!
        delay=$(printf '0.%03d' $((RANDOM % 700 + 100)))
        if [ "$trial" = 0 ]; then
            # The first kill waits for a hidden file to exist, so the fallback is surely exercised.
            for ((i = 0; i < 2000; i++)); do
                [ -n "$(find "$lib/originals" -name '.*.partial' 2>/dev/null | head -1)" ] && break
                sleep 0.002
            done
        else
            sleep "$delay"
        fi
        leftovers=$(find "$lib/originals" -name '.*.partial' 2>/dev/null | wc -l)
        kill_saver "$pid" "$acks"
        # Hidden files seen while saving, plus those the kill left behind.
        seen=$((seen + leftovers + $(find "$lib/originals" -name '.*.partial' 2>/dev/null | wc -l)))
        # The next open removes the dead saver's hidden files.
        "$ALBUM" albums --library "$lib" >/dev/null 2>&1
        leftovers=$(find "$lib/originals" -name '.*partial' 2>/dev/null | wc -l)
        [ "$leftovers" = 0 ] || { fail "partial trial $trial: $leftovers .partial file(s) left after reopening"; bad=1; }
        if [ -e "$lib/catalog.sqlite" ]; then
            verify_ok "$lib" || bad=1
            check_acknowledged "$lib" Partial "$acks" || bad=1
        fi
        [ "$bad" = 0 ] || failures=$((failures + 1))
    done
    [ "$seen" -gt 0 ] || { fail "partial: no .partial file was ever seen: the fallback was not exercised"; failures=$((failures + 1)); }
    summary partial "$PARTIAL_TRIALS" "$failures" "kill -9 with .partial staging; $seen hidden files seen mid-save"
}

# quickexit: a process that exits as soon as it can — a usage error found after the library
# opened, stdout failing while photos are still being hashed — exits with its own status, never a
# signal (a library loaded on another thread while exit() ran its handlers crashed with SIGSEGV).
scenario_quickexit() {
    echo "== quickexit: $QUICK_TRIALS trials of each"
    local dir=$WORK/quickexit lib=$WORK/quickexit/lib.albumlibrary status failures=0 trial
    make_jpegs "$dir/media" 40 quick
    "$ALBUM" save --album Quick --library "$lib" "$dir/media/quick_0000.jpg" >/dev/null 2>&1
    # The crash this guards against needed ~100 runs to show once: many cheap runs.
    for ((trial = 0; trial < QUICK_TRIALS; trial++)); do
        "$ALBUM" assets --order sideways --library "$lib" >/dev/null 2>&1
        status=$?
        [ "$status" = 2 ] || { fail "quickexit trial $trial: a usage error exited $status"; failures=$((failures + 1)); }
        ((trial % 10 == 0)) || continue
        # `--json`: a line per photo, those already in the library included (text output folds them
        # into the summary on stderr, and would write nothing to the full stdout).
        "$ALBUM" save --json --album Quick --library "$lib" "$dir/media"/*.jpg >/dev/full 2>/dev/null
        status=$?
        [ "$status" = 1 ] || { fail "quickexit trial $trial: stdout on /dev/full exited $status"; failures=$((failures + 1)); }
    done
    verify_ok "$lib" || failures=$((failures + 1))
    summary quickexit "$QUICK_TRIALS" "$failures" "usage error after opening; stdout full while hashing: exit 2 / 1, no signal"
}

# nolib: SQLite and libcrypto are loaded on first use, so a machine without them (or with a wrong
# one) meets the problem mid-command: every command that needs one exits 1 naming the package to
# install (a missing libcrypto used to crash the first hash), before anything is made or changed.
# An x86-64 processor with SHA instructions hashes without libcrypto: there, commands must work.
scenario_nolib() {
    echo "== nolib: libsqlite3 and libcrypto unusable"
    local dir=$WORK/nolib failures=0 trials=0 libm mode name package before after status command works force
    make_jpegs "$dir/media" 3 nolib
    libm=$(ldd "$ALBUM" | awk '$1 == "libm.so.6" { print $3 }')
    [ -f "$libm" ] || { fail "nolib: libm not found among album's libraries"; summary nolib 0 1 "no libm"; return; }
    "$ALBUM" save --album Kept --library "$dir/kept.albumlibrary" "$dir/media/nolib_0000.jpg" >/dev/null 2>&1
    # Without libcrypto, hashing needs it unless the processor has SHA instructions (x86-64
    # `sha_ni`): with ALBUMKIT_SHA256=libcrypto every command must refuse, naming the package; on
    # such a processor, without it, every command must work.
    local modes="libsqlite3.so.0 libcrypto.so.3:libcrypto"
    [ "$(uname -m)" = x86_64 ] && grep -qw sha_ni /proc/cpuinfo && modes="$modes libcrypto.so.3:processor"
    for mode in $modes; do
        name=${mode%%:*}
        case $mode in libsqlite3*) package=libsqlite3-0 ;; *) package=libssl3 ;; esac
        works=0 force=libcrypto
        [ "$mode" = libcrypto.so.3:processor ] && works=1 force=
        rm -rf "$dir/new.albumlibrary" "$dir/folders" && mkdir -p "$dir/folders"
        # Under the development name too (libsqlite3.so, libcrypto.so), which is tried next.
        mkdir -p "$dir/impostor-$name" && cp "$libm" "$dir/impostor-$name/$name" && cp "$libm" "$dir/impostor-$name/${name%.so.*}.so"
        before=$(cd "$dir/kept.albumlibrary" && find originals journal -type f -exec sha256sum {} + | sort)
        for command in "save --album A --library $dir/new.albumlibrary $dir/media/nolib_0001.jpg" \
            "save --album Kept --library $dir/kept.albumlibrary $dir/media/nolib_0002.jpg" \
            "verify --library $dir/kept.albumlibrary" "repair --library $dir/kept.albumlibrary" \
            "save --folders --album A --library $dir/folders $dir/media/nolib_0001.jpg"; do
            case "$name:$command" in libsqlite3*:*--folders*) continue ;; esac  # folders need no SQLite
            trials=$((trials + 1))
            # shellcheck disable=SC2086 # the command is words
            ALBUMKIT_SHA256=$force LD_LIBRARY_PATH="$dir/impostor-$name" "$ALBUM" $command >"$dir/out" 2>"$dir/err"
            status=$?
            if [ "$works" = 1 ] && [ "$status" != 0 ]; then
                fail "nolib: without $name (the processor hashes), '$command' exited $status: $(head -c 300 "$dir/err")"
                failures=$((failures + 1))
            elif [ "$works" = 0 ] && [ "$status" = 0 ] && [ "$name:${command%% *}" = libcrypto.so.3:repair ]; then
                # repair rebuilds the index from the journal and hashes only files it adopts (none
                # here): it needs no libcrypto; the library stays as it was (checked below).
                :
            elif [ "$works" = 0 ] && { [ "$status" != 1 ] || ! grep -q "install $package" "$dir/err"; }; then
                fail "nolib: without $name, '$command' exited $status: $(head -c 300 "$dir/err")"
                failures=$((failures + 1))
            fi
        done
        if [ "$works" = 1 ]; then
            verify_ok "$dir/new.albumlibrary" || failures=$((failures + 1))
            [ -n "$(find "$dir/folders" -name 'nolib_0001*.jpg')" ] || { fail "nolib: without $name the folder save is missing"; failures=$((failures + 1)); }
        else
            [ ! -e "$dir/new.albumlibrary" ] || { fail "nolib: without $name a new library was made"; failures=$((failures + 1)); }
            [ -z "$(ls -A "$dir/folders")" ] || { fail "nolib: without $name the folder library was written"; failures=$((failures + 1)); }
            after=$(cd "$dir/kept.albumlibrary" && find originals journal -type f -exec sha256sum {} + | sort)
            [ "$before" = "$after" ] || { fail "nolib: without $name the saved library changed"; failures=$((failures + 1)); }
        fi
        LD_LIBRARY_PATH="$dir/impostor-$name" "$ALBUM" --help >/dev/null 2>&1 || { fail "nolib: --help failed without $name"; failures=$((failures + 1)); }
    done
    verify_ok "$dir/kept.albumlibrary" || failures=$((failures + 1))
    summary nolib "$trials" "$failures" "libsqlite3 / libcrypto replaced by another library: exit 1 naming the package, nothing made; on a processor with SHA instructions, every command works without libcrypto"
}

# newlib: a new catalog is built without SQLite's flushes and flushed once when complete; a
# process killed at any moment of that (or of its first save) must leave a library the next save
# can use: new again, or holding what was acknowledged.
scenario_newlib() {
    local trials=$((QUICK_TRIALS / 8)) dir=$WORK/newlib failures=0 trial lib pid delay
    echo "== newlib: $trials trials"
    make_jpegs "$dir/media" 4 newlib
    for ((trial = 0; trial < trials; trial++)); do
        lib=$dir/lib$trial.albumlibrary
        "$ALBUM" save --album New --library "$lib" "$dir/media"/newlib_000[0-2].jpg >/dev/null 2>&1 &
        pid=$!
        delay=$(awk -v seed="$trial" 'BEGIN { srand(seed); printf "%.4f", rand() * 0.04 }')
        sleep "$delay"
        kill -9 "$pid" 2>/dev/null
        wait "$pid" 2>/dev/null
        if ! "$ALBUM" save --album New --library "$lib" "$dir/media/newlib_0003.jpg" >/dev/null 2>"$dir/err"; then
            fail "newlib trial $trial (killed after ${delay}s): the next save failed: $(head -c 300 "$dir/err")"
            failures=$((failures + 1))
            continue
        fi
        verify_ok "$lib" || failures=$((failures + 1))
    done
    summary newlib "$trials" "$failures" "kill -9 while a save creates a new library: the next save works, verify passes"
}

# shutdown: what a power loss leaves, made by the kernel: EXT4_IOC_SHUTDOWN with
# EXT4_GOING_FLAGS_NOLOGFLUSH stops every write of a loop-mounted ext4 at once, its journal not
# flushed; the image then holds only what reached the (loop) disk.
scenario_shutdown() {
    echo "== shutdown"
    command -v mkfs.ext4 >/dev/null || { skip shutdown "no mkfs.ext4"; return; }
    command -v python3 >/dev/null || { skip shutdown "no python3 for the shutdown ioctl"; return; }
    local dir=$WORK/shutdown trials failures=0 trial mnt img lib acks err pid delay bad
    trials=$([ "$MODE" = full ] && echo 60 || echo 8)
    mkdir -p "$dir"
    # 998 photos in the batch, under an open-file limit of 2 048: two chunks, of 500 and 498 (a chunk
    # holds at most 500 photos there, the saver keeping two chunks' files open; 1 024 otherwise), so an
    # even trial's cut can land while the second one commits. They take about 510 MB where ImageMagick makes camera-sized ones: the disk
    # is 1 GiB (sparse), so a batch that is not cut never fills it.
    make_jpegs "$dir/media" 1000 sd
    for ((trial = 0; trial < trials; trial++)); do
        mnt=$dir/mnt$trial img=$dir/disk$trial.img bad=0
        mkdir -p "$mnt"
        truncate -s 1G "$img" && mkfs.ext4 -q -F "$img" >/dev/null 2>&1 || { skip shutdown "mkfs.ext4 failed"; return; }
        mount_image "$img" "$mnt" || { skip shutdown "cannot mount a loop device here"; rm -f "$img"; return; }
        MOUNTS+=("$mnt")
        lib=$mnt/lib.albumlibrary acks=$dir/acks$trial err=$dir/err$trial
        "$ALBUM" save -q --album Trip --library "$lib" "$dir/media/sd_0000.jpg" "$dir/media/sd_0001.jpg" >/dev/null 2>&1
        sync
        # A batch of new photos (the rest of the corpus, in an order of its own each trial).
        ls "$dir"/media/sd_*.jpg | tail -n +3 | shuf >"$dir/list$trial"
        (ulimit -n 2048 2>/dev/null; exec "$ALBUM" save --json --album Trip --library "$lib" $(cat "$dir/list$trial")) >"$acks" 2>"$err" &
        pid=$!
        # Odd trials cut at a random moment of the first chunk; even ones while a later chunk
        # commits (a random moment after the first acknowledgement).
        if ((trial % 2)); then
            delay=$((RANDOM % 600 + 20))
        else
            while kill -0 "$pid" 2>/dev/null && ! grep -qs '"asset"' "$acks"; do sleep 0.01; done
            delay=$((RANDOM % 120))
        fi
        sleep "$(printf '%d.%03d' $((delay / 1000)) $((delay % 1000)))"
        python3 -c 'import fcntl, os, struct, sys; fd = os.open(sys.argv[1], os.O_RDONLY); fcntl.ioctl(fd, 0x8004587D, struct.pack("I", 2))' "$mnt" ||
            { fail "shutdown trial $trial: the ioctl failed"; bad=1; }
        wait "$pid"
        umount "$mnt" && mount_image "$img" "$mnt" || { fail "shutdown trial $trial: cannot mount the disk again"; bad=1; }
        if [ "$bad" = 0 ]; then
            check_acknowledged "$lib" Trip "$acks" || bad=1
            verify_ok "$lib" || bad=1
            # Whatever state the cut left, the library takes the next save.
            "$ALBUM" save -q --album Trip --library "$lib" "$dir/media/sd_0000.jpg" >/dev/null 2>&1 ||
                { fail "shutdown trial $trial: the next save failed"; bad=1; }
        fi
        echo "  trial $trial: cut ${delay} ms $( ((trial % 2)) && echo 'after the start' || echo 'after the first result'), $(grep -c '"asset"' "$acks") acknowledged$([ "$bad" = 0 ] || echo ', FAILED')"
        umount "$mnt" 2>/dev/null
        if [ "$bad" = 0 ]; then rm -f "$img"; else failures=$((failures + 1)); fi
    done
    summary shutdown "$trials" "$failures" "ext4 shut down mid-batch without flushing its log: every acknowledged save kept"
}

# remount: a disk unmounted and mounted again in the same boot (a USB disk pulled out and plugged
# in, a loop image mounted again) often gets the same mount id and device number back; the index,
# written without flushes, may have been torn by whatever ended the earlier mount (the `shutdown`
# scenario lost a chunk of acknowledged saves from view that way, once in ~100 trials). Every
# opening after a remount rebuilds it; openings on the same mount never do.
scenario_remount() {
    echo "== remount"
    command -v mkfs.ext4 >/dev/null || { skip remount "no mkfs.ext4"; return; }
    local dir=$WORK/remount failures=0 trials=3 trial mnt img lib before after
    local kernel
    kernel=$(uname -r)
    if [ "$(printf '%s\n6.8\n' "${kernel%%-*}" | sort -V | head -1)" != 6.8 ]; then
        skip remount "kernel $kernel gives no unique mount id (Linux 6.8 and later do)"
        return
    fi
    mkdir -p "$dir"
    make_jpegs "$dir/media" "$trials" rm
    mnt=$dir/mnt img=$dir/disk.img lib=$dir/mnt/lib.albumlibrary
    mkdir -p "$mnt"
    truncate -s 64M "$img" && mkfs.ext4 -q -F "$img" >/dev/null 2>&1 || { skip remount "mkfs.ext4 failed"; return; }
    mount_image "$img" "$mnt" || { skip remount "cannot mount a loop device here"; rm -f "$img"; return; }
    MOUNTS+=("$mnt")
    for ((trial = 0; trial < trials; trial++)); do
        "$ALBUM" save -q --album Trip --library "$lib" "$(printf '%s/media/rm_%04d.jpg' "$dir" "$trial")" >/dev/null ||
            { fail "remount trial $trial: the save failed"; failures=$((failures + 1)); continue; }
        sync
        # The same mount, while a folder of the same disk is bound elsewhere (a container starting,
        # `systemd-mount`): the index is used as it is (no rebuild: the same file). Before, every
        # mount of the device was part of the session, so a bind mount anywhere made it look torn.
        before=$(stat -c %i "$lib/catalog.sqlite")
        mkdir -p "$mnt/spare" "$dir/bound"
        mount --bind "$mnt/spare" "$dir/bound" || { fail "remount trial $trial: cannot bind a folder"; failures=$((failures + 1)); }
        "$ALBUM" albums --library "$lib" >/dev/null 2>&1
        umount "$dir/bound" 2>/dev/null
        after=$(stat -c %i "$lib/catalog.sqlite")
        [ "$before" = "$after" ] || { fail "remount trial $trial: the index was rebuilt on the same mount (a folder bound elsewhere on the disk)"; failures=$((failures + 1)); }
        # Unmounted and mounted again: rebuilt (a new file put in place), every photo shown.
        umount "$mnt" && mount_image "$img" "$mnt" || { fail "remount trial $trial: cannot mount the disk again"; failures=$((failures + 1)); break; }
        "$ALBUM" albums --library "$lib" >/dev/null 2>&1
        after=$(stat -c %i "$lib/catalog.sqlite")
        if [ "$before" = "$after" ]; then
            fail "remount trial $trial: the index written before the disk was mounted again was trusted as it was"
            failures=$((failures + 1))
        fi
        [ "$(show_hashes "$lib" Trip | wc -l)" = $((trial + 1)) ] ||
            { fail "remount trial $trial: the album does not show its $((trial + 1)) photos"; failures=$((failures + 1)); }
        verify_ok "$lib" || failures=$((failures + 1))
    done
    umount "$mnt" 2>/dev/null
    summary remount "$trials" "$failures" "a disk mounted again in the same boot: its index rebuilt at the first opening, never on the same mount"
}

# cardcut: a camera that lost power mid-write leaves photos of 0 bytes or cut short on its card
# (before: an empty one was counted among "not photos or videos" and named only with -v).
scenario_cardcut() {
    echo "== cardcut"
    local dir=$WORK/cardcut kind lib status bad=0 trials=0 f size
    make_jpegs "$dir/whole" 6 IMG
    for kind in catalog folders; do
        trials=$((trials + 1))
        rm -rf "$dir/card" && mkdir -p "$dir/card/DCIM/100CANON" && cp "$dir/whole"/*.jpg "$dir/card/DCIM/100CANON/"
        : >"$dir/card/DCIM/100CANON/IMG_0000.jpg"
        head -c 300 "$dir/whole/IMG_0001.jpg" >"$dir/card/DCIM/100CANON/IMG_0001.jpg"
        size=$(stat -c %s "$dir/whole/IMG_0002.jpg")
        head -c $((size / 2)) "$dir/whole/IMG_0002.jpg" >"$dir/card/DCIM/100CANON/IMG_0002.jpg"
        if [ "$kind" = catalog ]; then lib=(--library "$dir/$kind.albumlibrary"); else lib=(--folders --library "$dir/Pictures"); fi
        "$ALBUM" import --album Card "${lib[@]}" "$dir/card" >"$dir/out" 2>"$dir/err"
        status=$?
        [ "$status" = 1 ] || { fail "cardcut $kind: exit $status, not 1: $(tail -1 "$dir/err")"; bad=$((bad + 1)); }
        grep -q "IMG_0000.jpg: empty file (0 bytes)" "$dir/err" || { fail "cardcut $kind: the empty photo is not named: $(cat "$dir/err")"; bad=$((bad + 1)); }
        for f in IMG_0001 IMG_0002; do
            grep -q "$f.jpg is cut short \(at [0-9]* of at least [0-9]* bytes\|after [0-9]* bytes\): .*" "$dir/err" || { fail "cardcut $kind: $f (cut short) is not named with its size: $(cat "$dir/err")"; bad=$((bad + 1)); }
        done
        grep -q "album: 3 saved, 3 failed" "$dir/err" || { fail "cardcut $kind: summary: $(tail -1 "$dir/err")"; bad=$((bad + 1)); }
        "$ALBUM" verify "${lib[@]}" >"$dir/verify" 2>&1 || { fail "cardcut $kind: verify: $(head -3 "$dir/verify")"; bad=$((bad + 1)); }
        # The photos recovered whole (from the camera's buffer, another copy): the next import saves them.
        cp "$dir/whole"/IMG_000[012].jpg "$dir/card/DCIM/100CANON/"
        "$ALBUM" import --album Card "${lib[@]}" "$dir/card" >"$dir/out" 2>"$dir/err" ||
            { fail "cardcut $kind: the import of the whole photos failed: $(tail -2 "$dir/err")"; bad=$((bad + 1)); }
        grep -q "album: 3 saved, 3 already in the library" "$dir/err" || { fail "cardcut $kind: again: $(tail -1 "$dir/err")"; bad=$((bad + 1)); }
    done
    summary cardcut "$trials" "$bad" "photos of 0 bytes and cut short on a card: named with their cause, failed, the rest saved (catalog, folders)"
}

# watchkill: a watched folder (import --watch) killed with kill -9 while photos arrive in it, half
# of them written in two halves with a pause, then started again: each photo imported once, whole.
scenario_watchkill() {
    echo "== watchkill"
    local dir=$WORK/watchkill bad=0 pid i f size writers=() lib count
    make_jpegs "$dir/whole" 12 IMG
    mkdir -p "$dir/inbox"
    lib=(--library "$dir/W.albumlibrary")
    "$ALBUM" import --watch "$dir/inbox" --album Inbox --settle 0.3 "${lib[@]}" >"$dir/out1" 2>"$dir/err1" &
    pid=$!
    sleep 0.5
    for ((i = 0; i < 12; i++)); do
        f=$(printf 'IMG_%04d.jpg' "$i")
        if ((i % 2 == 0)); then
            # Held open across the pause: stable size and time, but not complete.
            size=$(stat -c %s "$dir/whole/$f")
            { head -c $((size / 2)) "$dir/whole/$f"; sleep 0.8; tail -c +$((size / 2 + 1)) "$dir/whole/$f"; } >"$dir/inbox/$f" &
            writers+=($!)
        else
            cp "$dir/whole/$f" "$dir/inbox/$f"
        fi
        sleep 0.15
        if ((i == 6)); then
            kill -9 "$pid" 2>/dev/null
            wait "$pid" 2>/dev/null
            "$ALBUM" import --watch "$dir/inbox" --album Inbox --settle 0.3 "${lib[@]}" >"$dir/out2" 2>"$dir/err2" &
            pid=$!
        fi
    done
    wait "${writers[@]}"
    sleep 3
    kill -INT "$pid" && wait "$pid" || { fail "watchkill: the second watch ended with $?: $(tail -2 "$dir/err2")"; bad=$((bad + 1)); }
    grep -q "album: stopped watching" "$dir/err2" || { fail "watchkill: no summary: $(cat "$dir/err2")"; bad=$((bad + 1)); }
    # A half-written photo taken for a whole one is refused as cut short: none may be tried.
    ! grep -h "cut short\|damaged\|failed" "$dir/err1" "$dir/err2" ||
        { fail "watchkill: a photo was tried before it was complete"; bad=$((bad + 1)); }
    "$ALBUM" show --json Inbox "${lib[@]}" >"$dir/shown" 2>&1 || { fail "watchkill: show: $(head -2 "$dir/shown")"; bad=$((bad + 1)); }
    python3 - "$dir/shown" "$dir/whole" <<'PY' || bad=$((bad + 1))
import hashlib, json, os, sys
shown, whole = sys.argv[1:]
assets = json.load(open(shown))
names = sorted(a["file"] for a in assets)
expected = sorted(os.listdir(whole))
if names != expected:
    print(f"FAIL watchkill: the album holds {names}, not each photo once: {expected}"); sys.exit(1)
for a in assets:
    digest = hashlib.sha256(open(os.path.join(whole, a["file"]), "rb").read()).hexdigest()
    if a.get("sha256") != digest:
        print(f"FAIL watchkill: {a['file']} was imported with other bytes (half-written?)"); sys.exit(1)
PY
    "$ALBUM" verify "${lib[@]}" >"$dir/verify" 2>&1 || { fail "watchkill: verify: $(head -3 "$dir/verify")"; bad=$((bad + 1)); }
    # Started once more: everything is in the library already, and it says nothing until stopped.
    "$ALBUM" import --watch "$dir/inbox" --album Inbox --settle 0.3 "${lib[@]}" >"$dir/out3" 2>"$dir/err3" &
    pid=$!
    sleep 2
    kill -INT "$pid" && wait "$pid"
    [ ! -s "$dir/out3" ] || { fail "watchkill: a restart listed files: $(head -3 "$dir/out3")"; bad=$((bad + 1)); }
    grep -q "0 saved, 12 already in the library" "$dir/err3" || { fail "watchkill: restart: $(tail -1 "$dir/err3")"; bad=$((bad + 1)); }
    summary watchkill 1 "$bad" "a watched folder killed (-9) while photos arrive, half written slowly: each imported once and whole, a restart quiet"
}

# mirrorforge: export --delete trusts nothing of its record in the export folder.
scenario_mirrorforge() {
    echo "== mirrorforge"
    local dir=$WORK/mirrorforge lib bad=0 id sum size
    make_jpegs "$dir/card" 3 IMG
    lib=(--library "$dir/L.albumlibrary")
    mkdir -p "$dir/out" && printf mine >"$dir/out/notes.txt" && printf precious >"$dir/victim.txt"
    "$ALBUM" import --album Trip "${lib[@]}" "$dir/card" >/dev/null 2>&1 || { fail "mirrorforge: import"; bad=$((bad + 1)); }
    "$ALBUM" export Trip "$dir/out" "${lib[@]}" >/dev/null 2>"$dir/err" || { fail "mirrorforge: export: $(cat "$dir/err")"; bad=$((bad + 1)); }
    id=$(python3 -c 'import json,sys; print(next(iter(json.load(open(sys.argv[1]))["albums"])))' "$dir/out/.albumkit-export")
    sum=$(sha256sum "$dir/victim.txt" | cut -d" " -f1)
    size=$(stat -c %s "$dir/victim.txt")
    ln -s "$dir/victim.txt" "$dir/out/link.jpg" && mkdir "$dir/out/folder.jpg"
    python3 - "$dir/out/.albumkit-export" "$id" "$sum" "$size" "$dir/victim.txt" <<'PY'
import json, sys
path, album, digest, size, victim = sys.argv[1:]
record = json.load(open(path))
forged = ["../victim.txt", victim, "link.jpg", "folder.jpg", ".", ""]
record["albums"][album] += [{"name": n, "size": int(size), "sha256": digest} for n in forged]
json.dump(record, open(path, "w"))
PY
    "$ALBUM" remove Trip IMG_0002.jpg "${lib[@]}" >/dev/null 2>&1 || { fail "mirrorforge: remove"; bad=$((bad + 1)); }
    XDG_DATA_HOME=$dir/data "$ALBUM" export --delete Trip "$dir/out" "${lib[@]}" >"$dir/out.txt" 2>"$dir/err" ||
        { fail "mirrorforge: export --delete: $(cat "$dir/err")"; bad=$((bad + 1)); }
    [ "$(cat "$dir/victim.txt" 2>/dev/null)" = precious ] || { fail "mirrorforge: the file outside was removed"; bad=$((bad + 1)); }
    [ -L "$dir/out/link.jpg" ] && [ -d "$dir/out/folder.jpg" ] || { fail "mirrorforge: the link or folder went"; bad=$((bad + 1)); }
    [ "$(cat "$dir/out/notes.txt")" = mine ] || { fail "mirrorforge: the user's file went"; bad=$((bad + 1)); }
    [ ! -e "$dir/out/IMG_0002.jpg" ] && [ -f "$dir/data/Trash/files/IMG_0002.jpg" ] ||
        { fail "mirrorforge: the removed photo is not in the Trash: $(cat "$dir/out.txt")"; bad=$((bad + 1)); }
    grep -q ", 1 removed" "$dir/out.txt" || { fail "mirrorforge: summary: $(tail -1 "$dir/out.txt")"; bad=$((bad + 1)); }
    summary mirrorforge 1 "$bad" "a forged export record (../, absolute, link, folder): nothing outside removed; the photo left the album goes to the Trash"
}

# forgedpreview: the kept thumbnails of a catalog are a cache it must not trust (Docs/previews.md).
scenario_forgedpreview() {
    echo "== forgedpreview"
    local dir=$WORK/forgedpreview lib=$WORK/forgedpreview/lib.albumlibrary kept bad=0
    make_jpegs "$dir/media" 3 forged
    printf 'precious' >"$dir/victim.txt"
    "$ALBUM" save --album Keep --library "$lib" "$dir/media"/*.jpg >"$dir/save" 2>&1 || { fail "forgedpreview: save failed"; bad=1; }
    "$ALBUM" previews --library "$lib" >"$dir/first" 2>&1 || { fail "forgedpreview: previews: $(cat "$dir/first")"; bad=1; }
    mapfile -t kept < <(cd "$lib" && find derivatives/256 -type f | sort)
    [ "${#kept[@]}" = 3 ] || { fail "forgedpreview: ${#kept[@]} thumbnails kept, not 3"; bad=1; }
    if [ "${#kept[@]}" = 3 ]; then
        truncate -s 100 "$lib/${kept[0]}"
        printf 'not a picture' >"$lib/${kept[1]}"
        rm -f "$lib/${kept[2]}" && ln -s "$dir/victim.txt" "$lib/${kept[2]}"
        "$ALBUM" previews --library "$lib" >"$dir/again" 2>&1 || { fail "forgedpreview: previews after forgery: $(cat "$dir/again")"; bad=1; }
        grep -q "^made 3, reused 6, failed 0" "$dir/again" || { fail "forgedpreview: $(tail -1 "$dir/again")"; bad=1; }
        for file in "${kept[0]}" "${kept[1]}"; do
            [ "$(head -c 2 "$lib/$file" | od -An -tx1 | tr -d ' ')" = ffd8 ] && [ "$(stat -c %s "$lib/$file")" -gt 500 ] ||
                { fail "forgedpreview: $file was not made again"; bad=1; }
        done
        [ "$(cat "$dir/victim.txt")" = precious ] || { fail "forgedpreview: the file the link named was written"; bad=1; }
        "$ALBUM" thumbnail --library "$lib" "$(basename "$(ls "$dir/media"/*.jpg | tail -1)")" -o "$dir/t.jpg" >/dev/null 2>"$dir/err" ||
            { fail "forgedpreview: thumbnail: $(cat "$dir/err")"; bad=1; }
    fi
    verify_ok "$lib" || bad=1
    summary forgedpreview 1 "$bad" "kept thumbnails cut short, turned to text and to a link outside: made again, nothing outside touched, verify healthy"
}

# hostilevideo: a video's frames are decoded by FFmpeg from bytes nobody checked (Docs/previews.md):
# bounded in pixels, packets and time, and a failure is an error naming the file.
scenario_hostilevideo() {
    echo "== hostilevideo"
    local dir=$WORK/hostilevideo lib=$WORK/hostilevideo/lib.albumlibrary bad=0 trials=0 name status started
    command -v ffmpeg >/dev/null || { skip hostilevideo "ffmpeg is not installed (it makes the clips)"; return; }
    mkdir -p "$dir/media"
    ffmpeg -loglevel error -y -f lavfi -i "testsrc=size=320x240:rate=25:duration=3" -c:v libx264 -g 25 \
        -pix_fmt yuv420p -movflags +faststart "$dir/whole.mp4" || { fail "hostilevideo: ffmpeg"; summary hostilevideo 1 1; return; }
    ffmpeg -loglevel error -y -f lavfi -i "sine=duration=2" -c:a aac "$dir/media/sound.m4a" 2>/dev/null
    make_infinite_webm "$dir/media/endless.webm"
    cp "$dir/whole.mp4" "$dir/media/whole.mp4"
    # The same clip with its sample data (the mdat box) replaced: random bytes, zeros, and the
    # first keyframe's bytes cut out (the rest shifted into its place), its index unchanged.
    python3 - "$dir/whole.mp4" "$dir/media" <<'PY'
import os, random, struct, sys
data = open(sys.argv[1], "rb").read()
at = 0
while at < len(data):
    size, kind = struct.unpack(">I4s", data[at:at + 8])
    if kind == b"mdat":
        break
    at += size
start, end = at + 8, at + size
random.seed(44)
noise = bytes(random.getrandbits(8) for _ in range(end - start))
variants = {
    "noise.mp4": data[:start] + noise + data[end:],
    "zeros.mp4": data[:start] + bytes(end - start) + data[end:],
    "shifted.mp4": data[:start] + data[start + 2000:end] + bytes(2000) + data[end:],
    "flipped.mp4": bytearray(data),
}
for index in range(start, end, 97):
    variants["flipped.mp4"][index] ^= 0xFF
for name, bytes_ in variants.items():
    open(os.path.join(sys.argv[2], name), "wb").write(bytes(bytes_))
PY
    "$ALBUM" save --album Clips --library "$lib" "$dir/media"/* >"$dir/save" 2>&1
    for name in whole noise zeros shifted flipped endless sound; do
        [ -e "$dir/media/$name.mp4" ] || [ -e "$dir/media/$name.webm" ] || [ -e "$dir/media/$name.m4a" ] || continue
        local file
        file=$(basename "$(ls "$dir/media/$name".*)")
        grep -q "^saved .*$file" "$dir/save" || continue
        trials=$((trials + 1))
        started=$(date +%s)
        timeout 60 "$ALBUM" thumbnail --library "$lib" "$file" -o "$dir/$name.jpg" >"$dir/$name.out" 2>"$dir/$name.err"
        status=$?
        if [ "$status" -ge 124 ]; then
            fail "hostilevideo: thumbnail of $file ended with status $status (a crash or a hang): $(head -c 300 "$dir/$name.err")"
            bad=$((bad + 1))
        elif [ "$status" = 1 ] && ! grep -q "$file" "$dir/$name.err"; then
            fail "hostilevideo: the error does not name $file: $(cat "$dir/$name.err")"
            bad=$((bad + 1))
        elif [ "$status" = 0 ] && [ "$(head -c 2 "$dir/$name.jpg" | od -An -tx1 | tr -d ' ')" != ffd8 ]; then
            fail "hostilevideo: $file gave no JPEG"
            bad=$((bad + 1))
        fi
        [ $(($(date +%s) - started)) -le 20 ] || { fail "hostilevideo: $file took $(($(date +%s) - started)) s"; bad=$((bad + 1)); }
        echo "  $file: exit $status: $(cat "$dir/$name.out" "$dir/$name.err" | head -1)"
    done
    [ -s "$dir/whole.jpg" ] || { fail "hostilevideo: the whole clip gave no poster frame"; bad=$((bad + 1)); }
    timeout 120 "$ALBUM" previews --library "$lib" >"$dir/previews" 2>&1
    status=$?
    [ "$status" -le 1 ] && grep -q "^made " "$dir/previews" ||
        { fail "hostilevideo: previews exit $status: $(tail -3 "$dir/previews")"; bad=$((bad + 1)); }
    verify_ok "$lib" || bad=$((bad + 1))
    summary hostilevideo "$trials" "$bad" "clips whose frames are noise, zeros, shifted or flipped, an endless WebM, a sound file: a poster or an error naming the file, no crash or hang"
}

# hostilebitmap: a BMP's pixels are decoded by AlbumKit's own decoder from bytes nobody checked
# (Docs/previews.md): headers that lie about the size, palette and compression, codes that run past
# the end, and random damage must each give a thumbnail or an error naming the file.
scenario_hostilebitmap() {
    echo "== hostilebitmap"
    local dir=$WORK/hostilebitmap lib=$WORK/hostilebitmap/lib.albumlibrary bad=0 trials=0 file status started
    mkdir -p "$dir/media"
    python3 - "$dir/media" <<'PY'
import os, random, struct, sys
def bmp(width, height, bits, compression, colours, pixels, palette, offset=None, size=40):
    info = struct.pack("<IiiHHIIiiII", size, width, height, 1, bits, compression, len(pixels), 0, 0, colours, 0)
    info += bytes(size - len(info))
    start = 14 + len(info) + len(palette)
    return b"BM" + struct.pack("<IHHI", start + len(pixels), 0, 0, start if offset is None else offset) + info + palette + pixels
palette = b"".join(bytes([i, 255 - i, i // 2, 0]) for i in range(256))
rows = bytes((x * 7 + y) % 256 for y in range(64) for x in range(64))
rle = b"".join(bytes([64, y]) + b"\0\0" for y in range(64)) + b"\0\1"
variants = {
    "whole": bmp(64, 64, 8, 0, 0, rows, palette),
    "rle": bmp(64, 64, 8, 1, 0, rle, palette),
    "huge": bmp(1_000_000, 1_000_000, 24, 0, 0, rows, b""),
    "upsidedown": bmp(64, -2_000_000_000, 24, 0, 0, rows, b""),
    "palette": bmp(64, 64, 8, 0, 4_000_000_000, rows, palette),
    "offset": bmp(64, 64, 8, 0, 0, rows, palette, offset=4_000_000_000),
    "cutshort": bmp(64, 64, 8, 0, 0, rows[:300], palette),
    "rlepast": bmp(64, 64, 8, 1, 0, bytes([0, 200, 1, 2, 3]), palette),
    "rledelta": bmp(64, 64, 8, 1, 0, bytes([0, 2, 255, 255] * 50), palette),
    "compression": bmp(64, 64, 8, 77, 0, rows, palette),
}
random.seed(44)
for index in range(8):
    damaged = bytearray(variants["rle" if index % 2 else "whole"])
    for _ in range(12):
        damaged[random.randrange(len(damaged))] = random.getrandbits(8)
    variants["noise%d" % index] = bytes(damaged)
for name, data in variants.items():
    open(os.path.join(sys.argv[1], name + ".bmp"), "wb").write(data)
PY
    "$ALBUM" save --album Bitmaps --library "$lib" "$dir/media"/* >"$dir/save" 2>&1
    for file in $(cd "$dir/media" && ls); do
        grep -q "^saved .*$file" "$dir/save" || continue
        trials=$((trials + 1))
        started=$(date +%s)
        timeout 60 "$ALBUM" thumbnail --library "$lib" "$file" -o "$dir/$file.jpg" >"$dir/$file.out" 2>"$dir/$file.err"
        status=$?
        if [ "$status" -ge 124 ]; then
            fail "hostilebitmap: thumbnail of $file ended with status $status (a crash or a hang): $(head -c 300 "$dir/$file.err")"
            bad=$((bad + 1))
        elif [ "$status" = 1 ] && ! grep -q "$file" "$dir/$file.err"; then
            fail "hostilebitmap: the error does not name $file: $(cat "$dir/$file.err")"
            bad=$((bad + 1))
        elif [ "$status" = 0 ] && [ "$(head -c 2 "$dir/$file.jpg" | od -An -tx1 | tr -d ' ')" != ffd8 ]; then
            fail "hostilebitmap: $file gave no JPEG"
            bad=$((bad + 1))
        fi
        [ $(($(date +%s) - started)) -le 20 ] || { fail "hostilebitmap: $file took $(($(date +%s) - started)) s"; bad=$((bad + 1)); }
        echo "  $file: exit $status: $(cat "$dir/$file.out" "$dir/$file.err" | head -1)"
    done
    [ -s "$dir/whole.bmp.jpg" ] && [ -s "$dir/rle.bmp.jpg" ] ||
        { fail "hostilebitmap: the whole bitmaps gave no thumbnail"; bad=$((bad + 1)); }
    timeout 120 "$ALBUM" previews --library "$lib" >"$dir/previews" 2>&1
    status=$?
    [ "$status" -le 1 ] && grep -q "^made " "$dir/previews" ||
        { fail "hostilebitmap: previews exit $status: $(tail -3 "$dir/previews")"; bad=$((bad + 1)); }
    verify_ok "$lib" || bad=$((bad + 1))
    summary hostilebitmap "$trials" "$bad" "bitmaps whose headers lie (size, palette, offset, compression), cut short, RLE past the end, random damage: a thumbnail or an error naming the file, no crash or hang"
}

# serve_scenario NAME MODE TRIALS SUMMARY: Scripts/serve/check-serve.py MODE against `album serve`
# over a catalog and a folder library, each holding one photo in "Trip".
serve_scenario() {
    local name=$1 mode=$2 trials=$3 what=$4 dir=$WORK/$1 bad=0 kind lib
    echo "== $name: $trials trials per library kind"
    if ! ls /usr/lib/*/libmicrohttpd.so.12 >/dev/null 2>&1; then
        skip "$name" "libmicrohttpd is not installed (apt-get install libmicrohttpd12)"
        return
    fi
    for kind in catalog folders; do
        mkdir -p "$dir/$kind/work"
        make_jpegs "$dir/$kind/card" 1 IMG
        if [ "$kind" = catalog ]; then lib=$dir/$kind/L.albumlibrary; else lib=$dir/$kind/Pictures; fi
        "$ALBUM" save --library "$lib" "--$kind" --album Trip "$dir/$kind/card"/*.jpg >/dev/null 2>&1 || { fail "$name $kind: the first save"; bad=$((bad + 1)); }
        python3 "$ROOT/Scripts/serve/check-serve.py" "$mode" "$ALBUM" "$lib" "$dir/$kind/state" "$dir/$kind/work" "$trials" >"$dir/$kind/out" 2>&1 ||
            { fail "$name $kind: $(grep -v '^ok' "$dir/$kind/out" | tail -3)"; bad=$((bad + 1)); }
    done
    summary "$name" $((trials * 2)) "$bad" "$what"
}

# servekill: `album serve` killed with SIGKILL at random moments of uploads (while the bytes arrive,
# while the last piece is saved), in a catalog and a folder library.
scenario_servekill() {
    serve_scenario servekill kill $((PARTIAL_TRIALS / 2 + 2)) \
        "album serve killed mid-upload and mid-save: verify passes, every acknowledged upload whole, no part of the cut one (catalog, folders)"
}

# serveshare: share links attacked, catalog and folders.
scenario_serveshare() {
    serve_scenario serveshare forge $((PARTIAL_TRIALS / 4 + 1)) \
        "share links forged, guessed, copied from another library, revoked, traversed, PINs guessed at once, slow headers: nothing outside the album served, five PINs checked, the server not held (catalog, folders)"
}

# servethumb: a kept thumbnail forged under a running server that already read it back whole.
scenario_servethumb() {
    serve_scenario servethumb forgedthumb 4 \
        "a running server's kept thumbnail forged after it was read back (cut, text, zeroed, a link out): made again, never served forged (catalog, folders)"
}

# servecut: uploads cut mid-body and resumed, catalog and folders.
scenario_servecut() {
    serve_scenario servecut cut $((PARTIAL_TRIALS + 4)) \
        "uploads cut at a random byte or reset, appends cut and resumed: every acknowledged photo once with its SHA-256, nothing staged (catalog, folders)"
}

START=$(date +%s)
for scenario in ${ONLY//,/ }; do
    SCENARIO_START=$(date +%s)
    "scenario_$scenario"
done

echo
echo "== reliability summary ($MODE, $(($(date +%s) - START)) s, album: $ALBUM)"
for line in "${SUMMARY[@]}"; do echo "  $line"; done
if [ "$TOTAL_FAILURES" -gt 0 ]; then
    echo "FAILED: $TOTAL_FAILURES failing trials"
    exit 1
fi
echo "OK"
