/// The album a save goes to, and the one rule that resolves it — shared by every backend.
///
/// Backends call ``resolve(in:)`` at the point where they can act atomically on the answer
/// (the catalog inside its write transaction; PhotoKit right before its change block).
package struct AlbumRequest: Sendable, Hashable {
    /// The album's title.
    package let title: AlbumTitle
    /// `true` on the retry after the album vanished between lookup and commit.
    package var vanished = false

    package init(title: AlbumTitle, vanished: Bool = false) {
        self.title = title
        self.vanished = vanished
    }

    /// Resolves the album: the remembered identifier if it still resolves, else the oldest album
    /// with the title, else "create" (`.recreated` when a remembered album was lost).
    package func resolve(in directory: some AlbumDirectory) throws -> AlbumResolution {
        let remembered = try directory.rememberedAlbumID(for: title)
        if let remembered, try directory.albumExists(id: remembered) {
            return .existing(id: remembered)
        }
        if let oldest = try directory.oldestAlbum(titled: title) {
            return .existing(id: oldest)
        }
        return .create(outcome: remembered != nil || vanished ? .recreated : .created)
    }
}

/// What ``AlbumRequest/resolve(in:)`` decided.
package enum AlbumResolution: Sendable, Hashable {
    /// Use this existing album (`.found`).
    case existing(id: String)
    /// Create an album with the title; the outcome to report.
    case create(outcome: AlbumOutcome)
}

/// The lookups the resolution rule needs, answered by a backend (inside its transaction when it has one).
package protocol AlbumDirectory {
    /// The album identifier remembered for `title`, if any.
    func rememberedAlbumID(for title: AlbumTitle) throws -> String?
    /// Whether an album with this identifier exists now.
    func albumExists(id: String) throws -> Bool
    /// The oldest album whose title equals `title` (after NFC), the same one every time.
    func oldestAlbum(titled title: AlbumTitle) throws -> String?
}
