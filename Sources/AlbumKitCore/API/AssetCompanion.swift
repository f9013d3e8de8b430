import Foundation

/// A file kept with an asset (``MediaCompanion``): a sidecar or the raw of a RAW+JPEG pair, as a
/// library lists it in ``AssetInfo/companions``.
///
/// ```swift
/// for companion in asset.companions { print(companion.role, companion.originalFilename) }
/// ```
public struct AssetCompanion: Sendable, Hashable {
    /// What the file is to its photo.
    public let role: MediaCompanion.Role
    /// The name the file had when it was saved (`IMG_1.xmp`).
    public let originalFilename: String
    /// Its size in bytes, when the library records it.
    public let byteSize: Int64?
    /// The SHA-256 of its bytes, hex, when the library records it.
    public let sha256: String?
    /// Where the library keeps it, when it is a plain file.
    public let fileURL: URL?

    /// Creates a companion description (libraries and tests).
    ///
    /// ```swift
    /// let xmp = AssetCompanion(role: .sidecar, originalFilename: "IMG_1.xmp", byteSize: 512)
    /// ```
    public init(
        role: MediaCompanion.Role, originalFilename: String, byteSize: Int64? = nil, sha256: String? = nil,
        fileURL: URL? = nil
    ) {
        self.role = role
        self.originalFilename = originalFilename
        self.byteSize = byteSize
        self.sha256 = sha256
        self.fileURL = fileURL
    }

    /// This companion with its file in `folder` (under its original name).
    package func placed(in folder: URL) -> AssetCompanion {
        AssetCompanion(
            role: role, originalFilename: originalFilename, byteSize: byteSize, sha256: sha256,
            fileURL: folder.appendingPathComponent(originalFilename))
    }

    /// The name this companion takes beside its photo when the photo is named `photoName`: a
    /// sidecar named after the whole file (`IMG_1.CR2.xmp`) follows the photo's whole name, one named
    /// after the stem (`IMG_1.xmp`, `IMG_1.AAE`, the raw `IMG_1.CR2`) follows its stem.
    ///
    /// ```swift
    /// AssetCompanion.name(of: "IMG_1.JPG.xmp", photo: "IMG_1.JPG", as: "IMG_1 2.JPG")  // "IMG_1 2.JPG.xmp"
    /// AssetCompanion.name(of: "IMG_1.CR2", photo: "IMG_1.JPG", as: "IMG_1 2.JPG")      // "IMG_1 2.CR2"
    /// ```
    public static func name(of companion: String, photo original: String?, as photoName: String) -> String {
        let companionName = (companion as NSString).lastPathComponent
        let ext = (companionName as NSString).pathExtension
        if let original, !original.isEmpty {
            let originalName = (original as NSString).lastPathComponent
            if companionName.lowercased().hasPrefix(originalName.lowercased() + "."),
                companionName.count == originalName.count + 1 + ext.count
            {
                return photoName + "." + ext
            }
        }
        let stem = (photoName as NSString).deletingPathExtension
        return ext.isEmpty ? stem : stem + "." + ext
    }
}
