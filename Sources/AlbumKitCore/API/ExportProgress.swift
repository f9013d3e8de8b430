/// How far an export is: assets done of the album's, and their bytes, reported after each asset is
/// written (or found already there, or failed).
///
/// ```swift
/// try await library.exportAlbum(withID: id, to: folder) { progress in
///     print("\(progress.completed)/\(progress.total)", progress.bytes, "of", progress.totalBytes)
/// }
/// ```
public struct ExportProgress: Sendable, Hashable {
    /// Assets done (written, already there, or failed).
    public let completed: Int
    /// Assets of the album.
    public let total: Int
    /// The bytes of the assets done, as the library records their sizes.
    public let bytes: Int64
    /// The bytes of all the album's assets, as the library records their sizes.
    public let totalBytes: Int64
}
