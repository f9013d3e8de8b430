#!/usr/bin/env bash
# Type-checks the package for macOS and iOS at the minimum versions Package.swift declares, with
# ../shared/apple-check/check.sh (Apple SDK headers and Swift interfaces; see its README).
#
#   Scripts/apple-check.sh [--platform macos|ios|all]     # default: all
#
# Some copies of shared/ lose symbolic links: each link inside the SDK frameworks
# (`Combine.framework/Modules` -> `Versions/Current/Modules`, `Versions/Current` -> `A`) arrives as a
# small file holding the link's target, and the macOS frameworks become unreadable to the compiler
# ("no such module 'Combine'" from Dispatch). When that is so, this script checks against a view of
# the SDKs in the check's work folder: symbolic links to the shared files, with those link files made
# links again. Nothing is copied into the project, and the shared folder is never written.
#
# Targets that use a build-tool plugin are not checked: the plugin's tool is built for this machine
# in the same build, and check.sh's Darwin compiler flags reach that host build too, which then
# cannot find Linux's standard library. Today that is only `readme-snippet-runner`, which runs
# README's examples in the Linux tests. The script names what it leaves out.
set -euo pipefail
cd "$(dirname "$0")/.."
shared=../shared/apple-check
[ -f "$shared/check.sh" ] || { echo "apple-check: $shared/check.sh is missing" >&2; exit 2; }

if [ -z "${TARGETS:-}" ]; then
    plan=$(swift package dump-package | python3 -c '
import json, sys
targets = [t for t in json.load(sys.stdin)["targets"] if t["type"] in ("regular", "executable")]
print(" ".join(t["name"] for t in targets if not t.get("pluginUsages")))
print(" ".join(t["name"] for t in targets if t.get("pluginUsages")))
')
    export TARGETS=$(sed -n 1p <<< "$plan")
    skipped=$(sed -n 2p <<< "$plan")
    [ -z "$skipped" ] || echo "apple-check: not checked (build-tool plugin, see Scripts/apple-check.sh): $skipped" >&2
fi

probe=$shared/sdk/MacOSX15.5-min/System/Library/Frameworks/Foundation.framework/Modules
if [ ! -f "$probe" ] || [ -L "$probe" ]; then
    exec bash "$shared/check.sh" "$@"
fi

work=${APPLE_CHECK_WORK:-${TMPDIR:-/tmp}/apple-check-$(id -u)}
view=$work/shared-view
source=$(cd "$shared" && pwd -P)
mkdir -p "$work"
exec 8> "$work/.view-lock"
flock 8
stamp=$(cksum < "$shared/check.sh" | cut -d' ' -f1)-$(find "$source/sdk" -type f | wc -l)
if [ "$(cat "$view/.stamp" 2>/dev/null)" != "$stamp" ]; then
    echo "apple-check: $shared lost its symbolic links; building a view with them in $view" >&2
    rm -rf "$view"
    mkdir -p "$view"
    cp -as "$source/sdk" "$view/sdk"
    cp "$source/check.sh" "$view/check.sh"
    # A link file: a regular file under 256 bytes holding one relative path that exists once the
    # link files before it are links again (Versions/Current first, then Modules, Headers, ...).
    python3 - "$view/sdk" <<'PY'
import os, sys
root = sys.argv[1]
candidates = []
for folder, _, files in os.walk(root):
    for name in files:
        path = os.path.join(folder, name)
        target = os.readlink(path)  # every file of the view is a link to the shared copy
        if os.path.getsize(target) < 256:
            try:
                text = open(target, encoding="utf-8").read()
            except (UnicodeDecodeError, OSError):
                continue
            if text and "\n" not in text and not text.startswith("/") and "\0" not in text:
                candidates.append((path, text))
changed = True
while changed:
    changed = False
    for path, text in list(candidates):
        if os.path.exists(os.path.join(os.path.dirname(path), text)):
            os.remove(path)
            os.symlink(text, path)
            candidates.remove((path, text))
            changed = True
PY
    echo "$stamp" > "$view/.stamp"
fi
exec bash "$view/check.sh" "$@"
