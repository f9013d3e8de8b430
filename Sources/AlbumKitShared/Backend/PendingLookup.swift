#if os(Linux)
    import AlbumKitCore
    import Foundation

    /// An album's look-up by title with its photos of some names (what `album save --album` reads
    /// to tell new versions), asked for now and answered by the next use of the database: a
    /// save's transaction A when it comes first, which carries it in its own round trip.
    ///
    /// ```swift
    /// let lookup = PendingLookup(title: title, keys: ["img_0001.jpg"])
    /// backend.pendingLookups.withLock { $0.append(lookup) }
    /// let found = try lookup.wait().get()   // after the database answered it
    /// ```
    final class PendingLookup: Sendable {
        let title: AlbumTitle
        /// The statements to send (two), their answers given to ``answer(_:)`` in order.
        let statements: [(sql: String, parameters: [String?])]
        private let done = DispatchGroup()
        private let outcome = Locked<Result<(id: String, assets: [AssetInfo])?, any Error>?>(nil)

        init(title: AlbumTitle, keys: [String]) {
            self.title = title
            // A list of texts cannot fail to encode.
            let list = (try? JSONEncoder().encode(keys)).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
            statements = [
                (SharedAlbumDirectory.factsQuery, [title.key, nil]),
                (SharedBackend.titledAlbumAssetsByNameSQL, [title.key, list]),
            ]
            done.enter()
        }

        /// Records the answer; the first one only counts.
        func answer(_ result: Result<(id: String, assets: [AssetInfo])?, any Error>) {
            let isFirst = outcome.withLock { outcome in
                guard outcome == nil else { return false }
                outcome = result
                return true
            }
            if isFirst { done.leave() }
        }

        /// Waits for the answer.
        func wait() -> Result<(id: String, assets: [AssetInfo])?, any Error> {
            done.wait()
            return outcome.withLock { $0! }
        }
    }
#endif
