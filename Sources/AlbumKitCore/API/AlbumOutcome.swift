/// What happened to the album during a save.
///
/// ```swift
/// switch saved.albumOutcome {
/// case .found: break
/// case .created, .recreated: print("made album", saved.albumID!)
/// case .skipped(let reason): print("saved to the library only:", reason)
/// }
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

    /// `found`, `created`, `recreated` or `skipped`, as printed by `album save --json`.
    public var description: String {
        switch self {
        case .found: "found"
        case .created: "created"
        case .recreated: "recreated"
        case .skipped: "skipped"
        }
    }
}
