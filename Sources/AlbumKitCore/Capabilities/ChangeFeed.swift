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
}
