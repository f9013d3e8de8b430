/// The album a save goes to, and the one rule that resolves it — shared by every backend.
///
/// Backends call ``findOrCreate(in:)`` (or ``find(in:)``) at the point where they can act
/// atomically on the answer (the catalog inside its write transaction; folders under their lock;
/// PhotoKit right before its change block).
package struct AlbumRequest: Sendable, Hashable {
    /// The album's title.
    package let title: AlbumTitle
    /// Save into exactly this album (its current title is `title`): never another album with the
    /// title, never a new one. `nil`: resolve `title`.
    package var albumID: String?
    /// `true` on the retry after the album vanished between lookup and commit.
    package var vanished = false

    package init(title: AlbumTitle, vanished: Bool = false) {
        self.title = title
        self.vanished = vanished
    }

    /// Resolves the album: the remembered identifier if it still resolves, else the oldest album
    /// with the title, else "create" (`.recreated` when a remembered album was lost).
    package func resolve(in directory: some AlbumDirectory) throws -> AlbumResolution {
        if let albumID {
            guard try directory.albumExists(id: albumID) else {
                throw AlbumError(
                    .albumNotFound, "The album \(albumID) (\"\(title.text)\") no longer exists; nothing was saved.",
                    albumTitle: title.text)
            }
            return .existing(id: albumID)
        }
        let remembered = try directory.rememberedAlbumID(for: title)
        if let remembered, try directory.albumExists(id: remembered) {
            return .existing(id: remembered)
        }
        if let oldest = try directory.oldestAlbum(titled: title) {
            return .existing(id: oldest)
        }
        return .create(outcome: remembered != nil || vanished ? .recreated : .created)
    }

    /// The album that resolves, without creating anything.
    ///
    /// ```swift
    /// let id = try AlbumRequest(title: title).find(in: directory)   // nil: no such album
    /// ```
    package func find(in directory: some AlbumDirectory) throws -> String? {
        if case .existing(let id) = try resolve(in: directory) { return id }
        return nil
    }

    /// Finds the album or creates it, and remembers it for the title: the one find-or-create of
    /// every backend that stores albums itself.
    ///
    /// ```swift
    /// let album = try request.findOrCreate(in: store)   // (id, .found | .created | .recreated)
    /// ```
    package func findOrCreate(in store: some AlbumStore) throws -> (id: String, outcome: AlbumOutcome) {
        let resolution = try resolve(in: store)
        let id: String
        switch resolution {
        case .existing(let existing): id = existing
        case .create: id = try store.createAlbum(titled: title)
        }
        try store.remember(id, for: title)
        return (id, resolution.outcome)
    }
}

/// What ``AlbumRequest/resolve(in:)`` decided.
package enum AlbumResolution: Sendable, Hashable {
    /// Use this existing album (`.found`).
    case existing(id: String)
    /// Create an album with the title; the outcome to report.
    case create(outcome: AlbumOutcome)

    /// What a save or `createAlbum` reports once this is done: `.found` for an existing album,
    /// else the creation's outcome (`.created`, `.recreated`).
    package var outcome: AlbumOutcome {
        switch self {
        case .existing: .found
        case .create(let outcome): outcome
        }
    }
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

/// An ``AlbumDirectory`` that can also create albums and remember them, for
/// ``AlbumRequest/findOrCreate(in:)``.
package protocol AlbumStore: AlbumDirectory {
    /// Creates an album titled `title`; returns its identifier.
    func createAlbum(titled title: AlbumTitle) throws -> String
    /// Remembers `id` as the album `title` leads to.
    func remember(_ id: String, for title: AlbumTitle) throws
}
