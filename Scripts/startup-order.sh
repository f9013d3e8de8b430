#!/usr/bin/env bash
# Regenerates Sources/album/Linking/startup-order.txt, the order in which the release build of
# `album` lays out the functions it runs when it starts.
#
#   Scripts/startup-order.sh        # about 15 minutes; then rebuild: swift build -c release
#
# Why: each page of code a command touches for the first time costs a page fault, about 7 µs on the
# virtual machines we measure on, and the functions a start runs were spread over 70 places in
# 16 MB of code. Linked next to each other (gold's --section-ordering-file, see Package.swift) they
# take a few. The order is a speed hint only: a function missing from the list, or a name that no
# longer exists, changes where code lies, never what it does.
#
# How: Scripts/startup-order/trace.c single-steps `album` under ptrace (every thread) through four
# commands — `--help`, a first save into a new library, `albums`, a second save — and
# functions.pl names the functions it ran from the binary's symbols, in the order they first ran.
# Needs a C compiler (the toolchain's clang), readelf, nm and perl. Rerun it when a release changes
# what runs at start (new commands, new start-up work), not for every change.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

swift build -c release --product album
album=$PWD/.build/release/album
"${CC:-clang}" -O2 -o "$work/trace" Scripts/startup-order/trace.c

# The code's addresses: .text of the fixed-address binary (a PIE build would move at run time).
read -r address size < <(readelf -SW "$album" | awk '$2 == ".text" { print $4, $6 }')
if readelf -hW "$album" | grep -q 'DYN (Position-Independent'; then
    echo "startup-order.sh: $album is position-independent; build without ALBUMKIT_PIE=1" >&2
    exit 1
fi
low=$address
high=$(printf '%x' $((0x$address + 0x$size)))

library=$work/Trace.albumlibrary
step() {
    local number=$1
    shift
    echo "startup-order.sh: tracing album $*" >&2
    "$work/trace" "$low" "$high" "$album" "$@" > "$work/trace-$number"
}
step 1 --help
step 2 --library "$library" save --album Trace Examples/harbour.jpg
step 3 --library "$library" albums
step 4 --library "$library" save --album Trace Examples/garden.png

nm -nS --defined-only "$album" > "$work/symbols"
perl Scripts/startup-order/functions.pl "$work/symbols" "$work"/trace-{1..4} > "$work/functions"
# Static constructors all run at start; they share the section name .text.startup.
{ echo .text.startup; sed 's/^/.text./' "$work/functions"; } > Sources/album/Linking/startup-order.txt
echo "startup-order.sh: $(wc -l < "$work/functions") functions in Sources/album/Linking/startup-order.txt" >&2
