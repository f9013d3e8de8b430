import Foundation

/// What the duplicate search knows of one asset: its bytes' SHA-256, its perceptual hashes and what
/// tells one shot from another (capture time, camera, the number in its name).
///
/// ```swift
/// let candidate = DuplicateCandidate(asset: info, hash: hash, albums: ["Trip"])
/// ```
package struct DuplicateCandidate: Sendable, Hashable {
    /// The asset's identifier.
    package var id: String
    /// Its file name as saved (`IMG_1001.HEIC`), or the identifier when it has none.
    package var name: String
    /// The SHA-256 of its bytes, when the library knows it.
    package var sha256: String?
    /// Its size in bytes.
    package var byteSize: Int64?
    /// Its pixel size as stored (before orientation).
    package var pixelWidth: Int?
    /// Its pixel height as stored.
    package var pixelHeight: Int?
    /// When it was taken (whole seconds, as EXIF records it).
    package var capturedAt: Date?
    /// The camera that took it, as its metadata names it.
    package var camera: String?
    /// Its format.
    package var format: MediaFormat?
    /// When it was added to the library.
    package var addedAt: Date
    /// The titles of the albums it is in.
    package var albums: [String]
    /// Its perceptual hashes; `nil` when it has none (a video, a file no decoder reads).
    package var hash: PerceptualHash?

    /// A candidate with everything given.
    package init(
        id: String, name: String, sha256: String? = nil, byteSize: Int64? = nil, pixelWidth: Int? = nil,
        pixelHeight: Int? = nil, capturedAt: Date? = nil, camera: String? = nil, format: MediaFormat? = nil,
        addedAt: Date = Date(timeIntervalSince1970: 0), albums: [String] = [], hash: PerceptualHash? = nil
    ) {
        self.id = id
        self.name = name
        self.sha256 = sha256
        self.byteSize = byteSize
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.capturedAt = capturedAt
        self.camera = camera
        self.format = format
        self.addedAt = addedAt
        self.albums = albums
        self.hash = hash
    }

    /// The candidate for a listed asset.
    package init(asset: AssetInfo, hash: PerceptualHash?, albums: [String]) {
        self.init(
            id: asset.id, name: asset.originalFilename ?? asset.id, sha256: asset.sha256, byteSize: asset.byteSize,
            pixelWidth: asset.pixelWidth, pixelHeight: asset.pixelHeight, capturedAt: asset.capturedAt,
            camera: asset.metadata?.camera, format: asset.metadata?.format, addedAt: asset.addedAt, albums: albums,
            hash: hash)
    }

    /// Its pixel count, 0 when unknown.
    var pixelCount: Int { (pixelWidth ?? 0) * (pixelHeight ?? 0) }

    /// Long edge over short edge, whichever way it is turned; `nil` when unknown.
    var aspectRatio: Double? {
        guard let width = pixelWidth, let height = pixelHeight, width > 0, height > 0 else { return nil }
        return Double(max(width, height)) / Double(min(width, height))
    }
}
