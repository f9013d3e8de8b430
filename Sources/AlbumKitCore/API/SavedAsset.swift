/// The result of saving one photo or video.
///
/// ```swift
/// let saved = try await album.save(.file(url))
/// print(saved.assetID, saved.albumID ?? "-", saved.albumOutcome)   // … created
/// ```
public struct SavedAsset: Sendable, Hashable {
    /// The stable identifier of the asset in its library.
    public let assetID: String
    /// The album's identifier; `nil` when no album was asked for or it was skipped.
    public let albumID: String?
    /// What happened to the album: ``AlbumOutcome/notRequested`` for a save to the library only.
    ///
    /// ```swift
    /// if saved.albumOutcome == .created { print("new album", saved.albumID ?? "") }
    /// ```
    public let albumOutcome: AlbumOutcome
    /// `true` when the library already held these bytes and returns that asset instead of storing a
    /// copy: catalog, shared and in-memory libraries look across the whole library (the asset keeps
    /// its first original file name; the new name is not recorded), folder libraries within the
    /// album. Photos never does: saving the same bytes again makes a second asset there.
    ///
    /// ```swift
    /// if saved.isExisting { print("already in the library as \(saved.assetID)") }
    /// ```
    public let isExisting: Bool
    /// `true` when the library already held these bytes but its copy was missing or damaged, and
    /// this save put an intact copy back (`isExisting` is `true` too: same asset, same albums).
    ///
    /// ```swift
    /// if saved.isRestored { print("the library's copy of \(saved.assetID) was repaired") }
    /// ```
    public let isRestored: Bool
    /// What was learnt about the media (format, size, capture date…), when known.
    public let metadata: MediaMetadata?
    /// The names of the ``Media/companions`` this library has no place for (Photos: an `.xmp`
    /// sidecar, a second raw; the in-memory library: all): the photo is saved, they stay only where
    /// they were.
    ///
    /// ```swift
    /// for name in saved.companionsLeftOut { print("not kept:", name) }
    /// ```
    public var companionsLeftOut: [String] = []
    /// The names of the ``Media/companions`` added to a photo the library already held, or put in
    /// place of its earlier version of that file (a sidecar edited since the photo was saved, or
    /// one missing then). Empty for a new asset, whose companions are all saved with it.
    ///
    /// ```swift
    /// if saved.isExisting, !saved.companionsUpdated.isEmpty { print("updated:", saved.companionsUpdated) }
    /// ```
    public var companionsUpdated: [String] = []

    /// Creates a result (backends and tests).
    public init(
        assetID: String, albumID: String?, albumOutcome: AlbumOutcome = .notRequested, isExisting: Bool = false,
        isRestored: Bool = false, metadata: MediaMetadata? = nil
    ) {
        self.assetID = assetID
        self.albumID = albumID
        self.albumOutcome = albumOutcome
        self.isExisting = isExisting
        self.isRestored = isRestored
        self.metadata = metadata
    }
}
