#!/usr/bin/env bash
# Checks README's install instructions as a new user follows them: a new Swift package that depends
# on this checkout (the `AlbumKit` product) builds without warnings and saves a photo with README's
# first example; `album` built as README says runs from another folder. The dependency is a released
# version from a Git URL, the strictest way SwiftPM takes a package: it refuses one whose library
# targets carry unsafe flags (which the release `album` uses, Package.swift).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# This working tree's tracked files as a Git repository with a version tag.
mkdir -p "$work/AlbumKit"
(cd "$root" && git ls-files -z --cached --others --exclude-standard |
    while IFS= read -r -d '' file; do [ -e "$file" ] && printf '%s\0' "$file"; done |
    xargs -0 cp --parents -t "$work/AlbumKit")
git -C "$work/AlbumKit" init -q
git -C "$work/AlbumKit" add -A
git -C "$work/AlbumKit" -c user.name=check-install -c user.email=check-install@localhost commit -qm "release"
git -C "$work/AlbumKit" tag 1.0.0
mkdir -p "$work/MyTool/Sources/MyTool"
cat >"$work/MyTool/Package.swift" <<MANIFEST
// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "MyTool",
    platforms: [.macOS(.v13)],
    dependencies: [.package(url: "file://$work/AlbumKit", from: "1.0.0")],
    targets: [
        .executableTarget(
            name: "MyTool", dependencies: [.product(name: "AlbumKit", package: "AlbumKit")])
    ]
)
MANIFEST
cat >"$work/MyTool/Sources/MyTool/main.swift" <<'SOURCE'
import AlbumKit
import Foundation

let library = try PhotoLibrary.catalog(at: URL(fileURLWithPath: "Photos.albumlibrary"))
let album = library.album(titled: "Touch Code Magazine")
let saved = try await album.save(.file(URL(fileURLWithPath: CommandLine.arguments[1])))
print(saved.assetID, saved.albumOutcome)
SOURCE
cd "$work/MyTool"
swift build 2>&1 | tee build.log | tail -1
if grep -q "warning:" build.log; then
    echo "check-install: the new package builds with warnings:" >&2
    grep "warning:" build.log >&2
    exit 1
fi
first=$(.build/debug/MyTool "$root/Examples/harbour.jpg")
second=$(.build/debug/MyTool "$root/Examples/garden.png")
[[ $first == *" created" && $second == *" found" ]] || {
    echo "check-install: unexpected output: $first / $second" >&2
    exit 1
}
# `album` on PATH, built as README says (release: the Swift runtime, Foundation and GCC's C++ runtime
# linked in, Package.swift), run from another folder.
(cd "$root" && swift build -c release --product album 2>&1 | tail -1)
mkdir -p "$work/bin"
install -m 755 "$root/.build/release/album" "$work/bin/album"
needed=$(readelf -d "$work/bin/album" | awk '/NEEDED/ { print $NF }' | tr -d '[]' | tr '\n' ' ')
if [[ $needed == *libstdc++* || $needed == *libgcc_s* || $needed == *libswift* || $needed == *Foundation* ]]; then
    echo "check-install: the release album loads a runtime it should link in: $needed" >&2
    exit 1
fi
PATH="$work/bin:$PATH" album --version
saved=$(PATH="$work/bin:$PATH" album save --json --album Installed --library "$work/i.albumlibrary" "$root/Examples/harbour.jpg")
[[ $saved == *'"albumOutcome":"created"'* ]] || {
    echo "check-install: the release album did not save: $saved" >&2
    exit 1
}
# README says the release album runs where Swift is not installed: hide the toolchain and save again.
toolchain=$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")")
if unshare -m true 2>/dev/null; then
    hidden=$(unshare -m sh -c 'mount -t tmpfs none "$1" && "$2" save --json --album Hidden --library "$3" "$4"' \
        sh "$toolchain" "$work/bin/album" "$work/h.albumlibrary" "$root/Examples/harbour.jpg")
    [[ $hidden == *'"albumOutcome":"created"'* ]] || {
        echo "check-install: the release album did not save with $toolchain hidden: $hidden" >&2
        exit 1
    }
else
    echo "check-install: not checked without the toolchain: this user cannot make a mount namespace (unshare -m)"
fi
echo "check-install: OK"
