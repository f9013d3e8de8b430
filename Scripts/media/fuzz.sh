#!/usr/bin/env bash
# Fuzzes AlbumKitMedia's parsers with libFuzzer + AddressSanitizer for a bounded time.
#
#   Scripts/media/fuzz.sh [SECONDS]     # default 60; crashes are written to .build/fuzz/artifacts/
#
# The starting corpus is the committed fixtures and broken variants; the working corpus grows in .build/fuzz/corpus.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
seconds=${1:-60}
cd "$root"
swift build -c debug -Xswiftc -sanitize=fuzzer,address -Xswiftc -DALBUMKIT_FUZZING \
  --build-path .build/fuzz-build --product AlbumKitMediaFuzz
binary=$(swift build -c debug --build-path .build/fuzz-build --show-bin-path)/AlbumKitMediaFuzz
mkdir -p .build/fuzz/corpus .build/fuzz/artifacts
cp Tests/AlbumKitMediaTests/Fixtures/corpus/* Tests/AlbumKitMediaTests/Fixtures/broken/* .build/fuzz/corpus/
"$binary" .build/fuzz/corpus -max_total_time="$seconds" -max_len=65536 -timeout=5 -rss_limit_mb=2048 \
  -artifact_prefix=.build/fuzz/artifacts/ -print_final_stats=1
