import AlbumKitCore
import Foundation

/// A file kept with a catalog asset (a sidecar, the raw of a RAW+JPEG pair), as a save record and
/// the index hold it: its role, name when saved, library file, size and SHA-256.
///
/// ```swift
/// let xmp = CatalogCompanion(role: "sidecar", name: "IMG_1.xmp", path: "originals/ab/ID-1.xmp", size: 812, sha256: "…")
/// let text = CatalogCompanion.jsonText([xmp])  // [{"name":"IMG_1.xmp",…}]
/// ```
package struct CatalogCompanion: Codable, Equatable, Sendable {
    package var role: String
    package var name: String
    /// Below the library's folder: `originals/xx/ID-1.xmp`.
    package var path: String
    package var size: Int64
    package var sha256: String

    package init(role: String, name: String, path: String, size: Int64, sha256: String) {
        self.role = role
        self.name = name
        self.path = path
        self.size = size
        self.sha256 = sha256
    }

    /// `companions` as one JSON array (keys sorted); `nil` for none.
    package static func jsonText(_ companions: [CatalogCompanion]) -> String? {
        guard !companions.isEmpty else { return nil }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Strings and integers only: encoding cannot fail.
        guard let data = try? encoder.encode(companions) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// The companions a JSON array holds; `nil` when it is not such an array.
    package static func list(fromJSON text: String) -> [CatalogCompanion]? {
        // Not such an array: `nil` is the answer (the record is damaged), not an error to pass on.
        try? JSONDecoder().decode([CatalogCompanion].self, from: Data(text.utf8))
    }

    /// As an asset lists it, its file below `root`.
    package func info(root: URL) -> AssetCompanion {
        AssetCompanion(
            role: MediaCompanion.Role(rawValue: role) ?? .sidecar, originalFilename: name, byteSize: size,
            sha256: sha256, fileURL: root.appendingFilePath(path))
    }
}
