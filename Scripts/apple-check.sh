#!/usr/bin/env bash
# Type-checks the package for macOS and iOS at the minimum versions Package.swift declares, with
# ../shared/apple-check/check.sh (Apple SDK headers and Swift interfaces; see its README). The check
# itself leaves out targets that use a build-tool plugin (today `readme-snippet-runner`, which runs
# README's examples in the Linux tests) and says so.
#
#   Scripts/apple-check.sh [--platform macos|ios|all]     # default: all
#
# APPLE_CHECK=/path/to/apple-check names the check's folder when the checkout is not beside
# shared/ (a git worktree elsewhere, say).
set -euo pipefail
cd "$(dirname "$0")/.."
shared=${APPLE_CHECK:-../shared/apple-check}
[ -f "$shared/check.sh" ] || { echo "apple-check: $shared/check.sh is missing (set APPLE_CHECK)" >&2; exit 2; }
exec bash "$shared/check.sh" "$@"
