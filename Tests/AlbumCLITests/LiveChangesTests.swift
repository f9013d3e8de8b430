#if os(Linux)
    import AlbumKit
    import AlbumServer
    import Foundation
    import Testing

    /// `album serve`'s change feed: one per server, every page listening to it. A page's own feed
    /// read the whole library before its first screen; now a change reaches every page listening,
    /// and a page gone stops listening.
    @Suite("album serve's change feed")
    struct LiveChangesTests {
        /// The next events `listener` sends, read off the cooperative threads (it waits on a semaphore).
        static func heard(_ listener: LiveChanges.Listener) async -> String {
            await Task.detached { String(decoding: listener.next(), as: UTF8.self) }.value
        }

        @Test func everyPageHearsTheOneFeedAndAPageGoneStopsListening() async throws {
            let library = PhotoLibrary.inMemory()
            let live = LiveChanges(library: library, interval: .milliseconds(20))
            let first = live.listen()
            var second: LiveChanges.Listener? = live.listen()
            #expect(live.listening == 2)
            // The feed takes the library as it is before it reports what changes after.
            try await Task.sleep(for: .milliseconds(300))
            let album = try await library.createAlbum(titled: "Live")
            let one = await Self.heard(first)
            #expect(one.hasPrefix("data: ") && one.contains(album.id), "\(one)")
            #expect(await Self.heard(second!) == one)
            second = nil
            // Released with its last reference (a finished task may hold it a moment longer).
            for _ in 0..<50 where live.listening != 1 { try await Task.sleep(for: .milliseconds(20)) }
            #expect(live.listening == 1)
        }
    }
#endif
