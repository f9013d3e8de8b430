#if os(Linux)
    import AlbumKitCore
    import AlbumKitMedia
    import Foundation

    /// A library whose change feed fails (a database down longer than the library retries it):
    /// its first start runs until ``goDown()``, the next `failures - 1` fail at once, and the one
    /// after reports one album changed. It saves nothing.
    final class FailingFeedBackend: LibraryBackend, ChangeFeed {
        let identity = "failing-feed"
        let failures: Int
        /// How many times the feed was started, the first start's stream while it runs, and whether
        /// the database went down.
        private let state = Locked<
            (starts: Int, first: AsyncThrowingStream<LibraryChange, any Error>.Continuation?, down: Bool)
        >((0, nil, false))

        init(failures: Int) { self.failures = failures }

        /// How many times the feed was started.
        var starts: Int { state.withLock { $0.starts } }

        /// Fails the feed's first start.
        func goDown() {
            let first = state.withLock { state in
                state.down = true
                return state.first
            }
            first?.finish(throwing: AlbumError(.libraryNotFound, "the database is down"))
        }

        func changes(polling interval: Duration) -> AsyncThrowingStream<LibraryChange, any Error> {
            let (stream, continuation) = AsyncThrowingStream.makeStream(of: LibraryChange.self)
            let (start, down) = state.withLock { state in
                state.starts += 1
                if state.starts == 1 { state.first = continuation }
                return (state.starts, state.down)
            }
            if start == 1 && !down {
                return stream
            } else if start <= failures {
                continuation.finish(throwing: AlbumError(.libraryNotFound, "the database is down"))
            } else {
                continuation.yield(LibraryChange(changedAlbumIDs: ["album-after-the-outage"]))
            }
            return stream
        }

        func albumUnavailableReason(needsAlbum: Bool) async throws -> String? { nil }
        func stage(_ media: Media) async throws -> Never { throw AlbumError(.notSupported, "no saves") }
        func stage(_ media: [Media], prepared: @escaping @Sendable () -> Void) async -> [Result<Never, AlbumError>] {
            media.map { _ in .failure(AlbumError(.notSupported, "no saves")) }
        }
        func discard(_ staged: Never) async {}
        func commit(_ staged: [Never], to album: AlbumRequest?) async throws -> CommitReceipt {
            throw AlbumError(.notSupported, "no saves")
        }
        func findAlbum(titled title: AlbumTitle) async throws -> String? { nil }
    }
#endif
