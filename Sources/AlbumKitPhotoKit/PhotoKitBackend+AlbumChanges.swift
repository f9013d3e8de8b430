import AlbumKitCore
import Foundation

#if canImport(Photos)
    import Photos
#else
    import PhotoKitSimulator
#endif

/// An album's changes as Photos describes them: a change observer, the change details of the
/// album's fetch result (`PHChange.changeDetails(for:)`), and on a restart Photos' persistent
/// change history since the token the app kept.
///
/// The album is fetched sorted by creation date (Photos publishes no date added, so both of
/// AlbumKit's orders are the creation date on Photos); the indexes are Photos' own, in that fetch.
extension PhotoKitBackend: AlbumChangeSource {
    package func albumChanges(
        orderedBy order: AssetOrder, since token: AlbumChangeToken?,
        resolve: @escaping @Sendable (AlbumChangeToken) async throws -> String?
    ) -> AsyncThrowingStream<AlbumChange, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: AlbumChange.self)
        let status = PHPhotoLibrary.authorizationStatus(for: .readWrite)
        guard status == .authorized || status == .limited else {
            continuation.finish(
                throwing: AlbumError(
                    .accessDenied,
                    "Watching an album in Photos needs read-write (or limited) access; ask for it with requestAccess(for: .readWrite)."
                ))
            return stream
        }
        // Registered before the first fetch, so that no change after it is missed.
        let observer = PhotoKitAlbumObserver()
        let library = PHPhotoLibrary.shared()
        library.register(observer)
        let task = Task {
            defer { library.unregisterChangeObserver(observer) }
            do {
                var follower = PhotoKitAlbumFollower(order: order, library: library)
                continuation.yield(try await follower.start(since: token, resolve: resolve))
                for await change in observer.changes {
                    try Task.checkCancellation()
                    if let next = try await follower.apply(change.change, resolve: resolve) {
                        continuation.yield(next)
                    }
                }
                continuation.finish()
            } catch is CancellationError {
                continuation.finish()
            } catch {
                continuation.finish(throwing: AlbumError.wrap(error))
            }
        }
        continuation.onTermination = { _ in
            task.cancel()
            observer.finish()
        }
        return stream
    }
}
