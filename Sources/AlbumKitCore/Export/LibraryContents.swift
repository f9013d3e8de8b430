import Foundation

/// Everything a library holds with its own identifiers and dates — assets with their files,
/// albums, memberships — read in one snapshot, for a copy that keeps them: the catalog library
/// writes it, the shared library reads it (a catalog copied into a shared library keeps its ids,
/// dates added and album order).
///
/// ```swift
/// let contents = try await catalog.exportContents()
/// let report = try await shared.copy(contents)
/// ```
package struct LibraryContents: Sendable {
    /// One asset, its original a file below ``LibraryContents/root``.
    package struct Asset: Sendable {
        package let id: String
        package let fileURL: URL
        package let originalName: String?
        package let kind: String
        package let format: String
        package let byteSize: Int64
        package let sha256: String
        package let addedAt: Double
        /// The asset's metadata as JSON text, as recorded.
        package let metadata: String?
        package let isFavorite: Bool
        /// The files kept with it (sidecars, the raw of a pair).
        package var companions: [Companion] = []

        package init(
            id: String, fileURL: URL, originalName: String?, kind: String, format: String, byteSize: Int64,
            sha256: String, addedAt: Double, metadata: String?, isFavorite: Bool, companions: [Companion] = []
        ) {
            self.id = id
            self.fileURL = fileURL
            self.originalName = originalName
            self.kind = kind
            self.format = format
            self.byteSize = byteSize
            self.sha256 = sha256
            self.addedAt = addedAt
            self.metadata = metadata
            self.isFavorite = isFavorite
            self.companions = companions
        }
    }

    /// A file kept with an asset: its role (`sidecar`, `raw`), its name when saved, its path below
    /// ``LibraryContents/root``, its size and SHA-256.
    package struct Companion: Sendable {
        package let role: String
        package let name: String
        package let path: String
        package let size: Int64
        package let sha256: String

        package init(role: String, name: String, path: String, size: Int64, sha256: String) {
            self.role = role
            self.name = name
            self.path = path
            self.size = size
            self.sha256 = sha256
        }
    }

    package struct Album: Sendable {
        package let id: String
        package let title: String
        package let titleKey: String
        package let createdAt: Double

        package init(id: String, title: String, titleKey: String, createdAt: Double) {
            self.id = id
            self.title = title
            self.titleKey = titleKey
            self.createdAt = createdAt
        }
    }

    package struct Membership: Sendable {
        package let albumID: String
        package let assetID: String
        package let position: Int64
        package let addedAt: Double

        package init(albumID: String, assetID: String, position: Int64, addedAt: Double) {
            self.albumID = albumID
            self.assetID = assetID
            self.position = position
            self.addedAt = addedAt
        }
    }

    /// The library's folder; every file named here is below it.
    package var root: URL
    package var assets: [Asset]
    package var albums: [Album]
    package var memberships: [Membership]

    package init(root: URL, assets: [Asset], albums: [Album], memberships: [Membership]) {
        self.root = root
        self.assets = assets
        self.albums = albums
        self.memberships = memberships
    }
}
