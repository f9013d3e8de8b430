/// A library that is told of its changes (Photos' change observer, the catalog's journal,
/// inotify on a folder library) rather than read again to find them.
///
/// A kind without it still reports changes: ``PhotoLibrary`` polls it
/// (``AlbumBrowsing/polledChanges(every:)``).
///
/// ```swift
/// for try await change in feed.changes(polling: .seconds(2)) { print(change) }
/// ```
package protocol ChangeFeed: LibraryBackend {
    /// The library's changes from now on, until the consumer stops iterating; `interval` is how
    /// often to read the library again where it cannot be told (a read-only catalog).
    func changes(polling interval: Duration) -> AsyncThrowingStream<LibraryChange, any Error>

    /// As ``changes(polling:)``, calling `started` once, when every change made from then on is
    /// sure to be reported (a kind that starts following in a task: once it has its starting
    /// point). The default, for a kind that follows from the call on, calls it at once.
    func changes(polling interval: Duration, started: @escaping @Sendable () -> Void)
        -> AsyncThrowingStream<LibraryChange, any Error>
}

extension ChangeFeed {
    /// ``changes(polling:)``, then `started`: the kind follows from the call on (Photos' observer,
    /// the in-memory library).
    package func changes(polling interval: Duration, started: @escaping @Sendable () -> Void)
        -> AsyncThrowingStream<LibraryChange, any Error>
    {
        let changes = changes(polling: interval)
        started()
        return changes
    }
}
