import Foundation

/// An asset as listed by ``PhotoLibrary/assets(inAlbumTitled:)``.
///
/// ```swift
/// for asset in try await library.assets(inAlbumTitled: "Trips") { print(asset.originalFilename ?? "?") }
/// ```
public struct AssetInfo: Sendable, Hashable {
    /// The asset's stable identifier.
    public let id: String
    /// The file name the asset had when it was saved.
    public let originalFilename: String?
    /// Photo or video.
    public let kind: MediaKind
    /// The size of the original in bytes; `nil` when the library cannot tell it cheaply (Photos).
    public let byteSize: Int64?
    /// When the asset was added (to the album when listed from an album).
    public let addedAt: Date
    /// The SHA-256 of the original, hex, when the library records it.
    public let sha256: String?
    /// Where the original is stored, when it is a plain file.
    public let fileURL: URL?
    /// Format and metadata, when known.
    public let metadata: MediaMetadata?
    /// Who saved it (`login@host as database-user`), when the library records it (a shared library).
    public var savedBy: String?

    /// Creates an asset description.
    public init(
        id: String, originalFilename: String?, kind: MediaKind, byteSize: Int64?, addedAt: Date,
        sha256: String? = nil, fileURL: URL? = nil, metadata: MediaMetadata? = nil, savedBy: String? = nil
    ) {
        self.savedBy = savedBy
        self.id = id
        self.originalFilename = originalFilename
        self.kind = kind
        self.byteSize = byteSize
        self.addedAt = addedAt
        self.sha256 = sha256
        self.fileURL = fileURL
        self.metadata = metadata
    }
}
