#if os(Linux)
    import AlbumKit
    import AlbumKitCore
    import AlbumKitMedia
    import AlbumServer
    import AlbumTestSupport
    import Foundation
    import Testing

    /// `album serve`'s change feed: one per server, every page listening to it. A page's own feed
    /// read the whole library before its first screen; now a change reaches every page listening,
    /// and a page gone stops listening.
    @Suite("album serve's change feed")
    struct LiveChangesTests {
        /// The next events `listener` sends, read off the cooperative threads (it waits on a semaphore).
        /// The feed says ": still here" after 15 s without a change; on a loaded machine the first
        /// change may come later than that, so those lines are passed over (for at most 4 minutes).
        static func heard(_ listener: LiveChanges.Listener) async -> String {
            await OwnThread.run {
                for _ in 0..<16 {
                    let text = String(decoding: listener.next(), as: UTF8.self)
                    if !text.hasPrefix(":") { return text }
                }
                return ": nothing heard in 4 minutes"
            }
        }

        @Test func everyPageHearsTheOneFeedAndAPageGoneStopsListening() async throws {
            let library = PhotoLibrary.inMemory()
            let live = LiveChanges(library: library, interval: .milliseconds(20))
            let first = live.listen()
            var second: LiveChanges.Listener? = live.listen()
            #expect(live.listening == 2)
            // The feed takes the library as it is before it reports what changes after, and on a
            // busy machine that first read may come late: albums are made until one is heard.
            let maker = Task {
                for n in 0..<2400 where !Task.isCancelled {
                    _ = try await library.createAlbum(titled: "Live \(n)")
                    try await Task.sleep(for: .milliseconds(100))
                }
            }
            let one = await Self.heard(first)
            maker.cancel()
            _ = await maker.result
            let ids = try await library.albums().map(\.id)
            #expect(one.hasPrefix("data: ") && ids.contains { one.contains($0) }, "\(one)")
            // The same changes, perhaps with later ones after them.
            #expect(await Self.heard(second!).hasPrefix(one))
            second = nil
            // Released with its last reference (a finished task may hold it a moment longer).
            for _ in 0..<50 where live.listening != 1 { try await Task.sleep(for: .milliseconds(20)) }
            #expect(live.listening == 1)
        }

        /// A feed that fails (the library's database down for longer than it is retried) starts
        /// again: the pages listening are told to reload once, a page that comes meanwhile is not
        /// (it used to be told at once, every time: a page reloading without end), and both hear
        /// the change made once the library is back.
        @Test func aFailedFeedStartsAgainAndThePagesHearTheChangesAfter() async throws {
            let backend = FailingFeedBackend(failures: 2)
            let live = LiveChanges(library: PhotoLibrary(backend: backend), interval: .milliseconds(20))
            let early = live.listen()
            backend.goDown()
            #expect(await Self.heard(early) == "data: {\"reload\":true}\n\n")
            let later = live.listen()
            let change = "data: {\"albums\":[\"album-after-the-outage\"],\"assets\":0}\n\n"
            #expect(await Self.heard(later) == change)
            #expect(await Self.heard(early) == change)
            #expect(backend.starts == 3)
        }

        /// A share link's guest listens to its album only; once its link no longer opens it is told
        /// to reload, and its stream ends.
        @Test func aGuestWhoseLinkClosedIsToldToReloadAndHearsNoMore() async throws {
            let library = PhotoLibrary.inMemory()
            let live = LiveChanges(library: library, interval: .milliseconds(20))
            let open = Locked(true)
            let guest = try #require(live.listen(album: "some-album", link: "link-1") { open.withLock { $0 } })
            #expect(live.listening == 1)
            open.withLock { $0 = false }
            let told = await OwnThread.run { String(decoding: guest.next(), as: UTF8.self) }
            #expect(told == "data: {\"reload\":true}\n\n")
            #expect(await OwnThread.run { guest.next() }.isEmpty, "the stream ends after telling")
        }

        /// A link's guests hold at most ``LiveChanges/listenersPerLink`` feeds, all guests
        /// ``LiveChanges/guestListeners``; a feed let go gives its place back, and the owner is never
        /// refused one.
        @Test func guestsHoldAFewFeedsAndLeaveTheRestToOthers() throws {
            let live = LiveChanges(library: PhotoLibrary.inMemory(), interval: .milliseconds(20))
            var held = (0..<LiveChanges.listenersPerLink).compactMap { _ in
                live.listen(album: "a", link: "link-1") { true }
            }
            #expect(held.count == LiveChanges.listenersPerLink)
            #expect(live.listen(album: "a", link: "link-1") { true } == nil, "one more for the same link")
            held.removeLast()
            let again = live.listen(album: "a", link: "link-1") { true }
            #expect(again != nil, "a place let go is given again")
            // Other links, up to the guests' share of the server.
            var others: [LiveChanges.Listener] = []
            for link in 2...10 {
                for _ in 0..<LiveChanges.listenersPerLink {
                    if let listener = live.listen(album: "a", link: "link-\(link)", whileOpen: { true }) {
                        others.append(listener)
                    }
                }
            }
            #expect(held.count + 1 + others.count == LiveChanges.guestListeners)
            let owners = (0..<40).map { _ in live.listen() }
            #expect(live.listening == LiveChanges.guestListeners + owners.count)
            _ = again
        }

        /// A page that went away ends its listener's wait at the next look (a quarter of a second),
        /// not after the 15 s without a change; a guest's as well.
        @Test func aPageGoneEndsTheWaitAtOnce() async throws {
            let library = PhotoLibrary.inMemory()
            let live = LiveChanges(library: library, interval: .milliseconds(20))
            let owner = live.listen()
            let guest = try #require(live.listen(album: "some-album", link: "link-1") { true })
            let clock = ContinuousClock()
            for listener in [owner, guest] {
                // Timed on its thread: the wait for this task to be resumed is the test runner's, not the feed's.
                let (sent, waited) = await OwnThread.run {
                    let start = clock.now
                    return (listener.next(whileConnected: { false }), clock.now - start)
                }
                #expect(sent.isEmpty, "nothing sent to a page gone")
                #expect(waited < .seconds(5), "let go after \(waited)")
            }
        }
    }
#endif
