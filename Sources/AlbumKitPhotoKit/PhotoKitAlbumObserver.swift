import Foundation

#if canImport(Photos)
    import Photos
#else
    import PhotoKitSimulator
#endif

/// Photos' change notifications as a sequence, for one album's change stream.
// @unchecked Sendable: NSObject is not Sendable on Linux. Its only state is the stream's
// continuation, which is Sendable.
final class PhotoKitAlbumObserver: NSObject, PHPhotoLibraryChangeObserver, @unchecked Sendable {
    /// One `PHChange` handed from Photos' queue to the stream's task.
    // @unchecked Sendable: a `PHChange` is an immutable description of one change; the box moves
    // it from the observer queue to the one task that reads it, and nothing else keeps it.
    struct Change: @unchecked Sendable {
        let change: PHChange
    }

    let changes: AsyncStream<Change>
    private let continuation: AsyncStream<Change>.Continuation

    override init() {
        (changes, continuation) = AsyncStream.makeStream(of: Change.self)
        super.init()
    }

    func photoLibraryDidChange(_ changeInstance: PHChange) {
        continuation.yield(Change(change: changeInstance))
    }

    /// Ends the sequence (the stream's consumer stopped).
    func finish() { continuation.finish() }
}
