/// A library that can tell what its changes touch without knowing its state before them (the
/// catalog, from its journal's records), so following it costs nothing up front and nothing per
/// asset held. A kind without it is followed through its ``LibraryChange``s
/// (``PhotoLibrary/touches(interval:)``).
///
/// ```swift
/// for try await touch in feed.touches(polling: .seconds(1)) { print(touch.albumIDs) }
/// ```
package protocol TouchFeed: LibraryBackend {
    /// What the library's changes touch from now on, until the consumer stops iterating;
    /// `interval` is how often to read the library again where it cannot be told.
    func touches(polling interval: Duration) -> AsyncThrowingStream<LibraryTouch, any Error>
}
