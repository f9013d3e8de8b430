#!/usr/bin/env bash
# Builds the DocC documentation from symbol graphs, without any package plugin.
# Output: .build/docs (a static site; open index.html through any static web server).
set -euo pipefail
cd "$(dirname "$0")/.."
graphs=.build/symbol-graphs
# Not emptied first: an incremental build emits graphs only for the modules it recompiles, and the
# others' graphs from the previous run are still current.
mkdir -p "$graphs"
swift build --target AlbumKit -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$graphs" \
    -Xswiftc -symbol-graph-minimum-access-level -Xswiftc public
# Only the facade's graph: it holds every symbol the modules it re-exports declare (the library
# kinds' modules each extend `PhotoLibrary`; given their own graphs too, DocC took `PhotoLibrary`
# for another module's and found no page for it under AlbumKit). A host tool built on the way
# (SnippetExtractor) would be a second module for DocC to choose from as well.
find "$graphs" -name '*.symbols.json' ! -name 'AlbumKit.symbols.json' -delete
docc convert Sources/AlbumKit/AlbumKit.docc \
    --additional-symbol-graph-dir "$graphs" \
    --fallback-display-name AlbumKit --fallback-bundle-identifier org.albumkit.AlbumKit \
    --output-path .build/docs "$@"
echo "documentation written to .build/docs"
