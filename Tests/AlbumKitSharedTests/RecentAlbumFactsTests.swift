#if os(Linux)
    import AlbumTestSupport
    import Foundation
    import Testing

    @testable import AlbumKitCore
    @testable import AlbumKitShared

    /// The album facts a look-up keeps for the save that follows it: the titles looked up last only.
    @Suite struct RecentAlbumFactsTests {
        @Test func theLeastRecentlyKeptTitleGoesFirst() {
            let kept = RecentAlbumFacts(limit: 2)
            kept.keep(["a"], forTitleKey: "first")
            kept.keep(["b"], forTitleKey: "second")
            // Kept again: now the most recent.
            kept.keep(["a2"], forTitleKey: "first")
            kept.keep(["c"], forTitleKey: "third")
            #expect(kept.count == 2)
            #expect(kept.take(forTitleKey: "second") == nil)
            #expect(kept.take(forTitleKey: "first") == ["a2"])
            // A guess is used once.
            #expect(kept.take(forTitleKey: "first") == nil)
            #expect(kept.take(forTitleKey: "third") == ["c"])
            #expect(kept.count == 0)
        }
    }

    extension SharedServerTests {
        /// A long-running `album serve` looks up many titles no save follows: the library keeps the
        /// facts of the last ones only, and a save after its look-up still starts from them.
        @Suite struct SharedAlbumFactsTests {
            @Test func lookUpsWithoutASaveKeepOnlyTheLastTitles() async throws {
                try await withTemporaryDirectory { directory in
                    let shared = try SharedTestLibrary()
                    for n in 0..<200 {
                        #expect(try await shared.backend.findAlbum(titled: AlbumTitle("Looked up \(n)")) == nil)
                    }
                    let kept = shared.backend.albumFacts
                    #expect(kept.count == kept.limit, "\(kept.count) titles kept")
                    // The save that follows the last look-up takes its guess, and saves.
                    let saved = try await shared.library.album(titled: "Looked up 199").save(
                        .file(try SharedTestLibrary.uniqueJPEG(in: directory, "last")))
                    #expect(saved.albumOutcome == .created)
                    #expect(kept.take(forTitleKey: try AlbumTitle("Looked up 199").key) == nil, "used once")
                    #expect(kept.take(forTitleKey: try AlbumTitle("Looked up 0").key) == nil, "the oldest dropped")
                    #expect(try await shared.library.albums().map(\.title) == ["Looked up 199"])
                }
            }
        }
    }
#endif
