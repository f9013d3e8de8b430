/// What happened to the album during a save.
///
/// ```swift
/// switch saved.albumOutcome {
/// case .found, .notRequested: break
/// case .created, .recreated: print("made album", saved.albumID ?? "")
/// case .skipped(let reason): print("saved to the library only:", reason)
/// }
/// if saved.albumOutcome.isSkipped { showAlbumAccessHint() }
/// ```
public enum AlbumOutcome: Sendable, Hashable, CustomStringConvertible {
    /// The album existed (by its remembered identifier or by title) and was used.
    case found
    /// No album had the title; it was created in the same transaction as the asset.
    case created
    /// The remembered album was gone (deleted by the user or another process); a new one was made.
    case recreated
    /// The asset was saved to the library but not to the album, for the given reason
    /// (only with ``AlbumAccessPolicy/saveToLibraryWhenAlbumUnavailable``).
    case skipped(String)
    /// No album was asked for: the asset was saved to the library only (``PhotoLibrary/save(_:)``).
    case notRequested

    /// Whether the asset went to the library only because the album could not be used
    /// (``skipped(_:)``), without matching the reason's text.
    ///
    /// ```swift
    /// if saved.albumOutcome.isSkipped { print(saved.albumOutcome.skipReason ?? "") }
    /// ```
    public var isSkipped: Bool {
        if case .skipped = self { return true }
        return false
    }

    /// Why the album was skipped (for a message), or `nil` when it was not.
    ///
    /// ```swift
    /// if let reason = saved.albumOutcome.skipReason { print("saved outside the album:", reason) }
    /// ```
    public var skipReason: String? {
        if case .skipped(let reason) = self { return reason }
        return nil
    }

    /// Whether the asset is in the album now (``found``, ``created`` or ``recreated``).
    ///
    /// ```swift
    /// if saved.albumOutcome.isInAlbum { print("in", saved.albumID ?? "") }
    /// ```
    public var isInAlbum: Bool {
        switch self {
        case .found, .created, .recreated: true
        case .skipped, .notRequested: false
        }
    }

    /// `found`, `created`, `recreated`, `skipped` or `notRequested` (as printed by
    /// `album save --json`, which leaves `notRequested` out).
    public var description: String {
        switch self {
        case .found: "found"
        case .created: "created"
        case .recreated: "recreated"
        case .skipped: "skipped"
        case .notRequested: "notRequested"
        }
    }
}
