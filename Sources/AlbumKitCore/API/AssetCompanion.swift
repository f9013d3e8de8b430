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
    /// after the stem (`IMG_1.xmp`, `IMG_1.AAE`, the raw `IMG_1.CR2`) follows its stem. A sidecar
    /// named after another companion (darktable's `IMG_1.CR2.xmp` beside the raw of a pair) needs
    /// the others: see ``names(of:photo:as:)``.
    ///
    /// ```swift
    /// AssetCompanion.name(of: "IMG_1.JPG.xmp", photo: "IMG_1.JPG", as: "IMG_1 2.JPG")  // "IMG_1 2.JPG.xmp"
    /// AssetCompanion.name(of: "IMG_1.CR2", photo: "IMG_1.JPG", as: "IMG_1 2.JPG")      // "IMG_1 2.CR2"
    /// ```
    public static func name(of companion: String, photo original: String?, as photoName: String) -> String {
        names(of: [companion], photo: original, as: photoName)[0]
    }

    /// The names a photo's companions take beside it when the photo is named `photoName`, each as
    /// the editor that wrote it named it: a file named after the photo's whole name (`IMG_1.JPG.xmp`)
    /// or after another companion's (`IMG_1.CR2.xmp`, darktable's sidecar of the raw of a pair)
    /// follows that file's new name; one named after the stem (`IMG_1.xmp`, `IMG_1.AAE`, the raw
    /// `IMG_1.CR2`) follows the photo's stem, a GoPro's low-resolution copy (`GL010001.LRV` of
    /// `GX010001.MP4`) the stem's number. With `photoName` the original name, every name stays.
    ///
    /// ```swift
    /// AssetCompanion.names(of: ["IMG_1.CR2", "IMG_1.CR2.xmp"], photo: "IMG_1.JPG", as: "IMG_1 2.JPG")
    /// // ["IMG_1 2.CR2", "IMG_1 2.CR2.xmp"]
    /// ```
    public static func names(of companions: [String], photo original: String?, as photoName: String) -> [String] {
        let given = companions.map { ($0 as NSString).lastPathComponent }
        let originalName = original.map { ($0 as NSString).lastPathComponent } ?? ""
        let stem = (photoName as NSString).deletingPathExtension
        // Each companion's new name, found once.
        var names = [String?](repeating: nil, count: given.count)
        func name(_ index: Int) -> String {
            if let known = names[index] { return known }
            let companion = given[index]
            let ext = (companion as NSString).pathExtension
            let described = (companion as NSString).deletingPathExtension.lowercased()
            var result = ext.isEmpty ? stem : stem + "." + ext
            // A GoPro's `GL010001.LRV` beside `GX010001 2.MP4`: `GL010001 2.LRV`, the name that
            // pairs it with that clip again (``CompanionGrouping/goProClipStems(ofLowResolutionCopy:)``).
            let goProName = String(companion.prefix(2)) + String(stem.dropFirst(2)) + "." + ext
            if CompanionGrouping.goProClipStems(ofLowResolutionCopy: companion) != nil,
                CompanionGrouping.goProClipStems(ofLowResolutionCopy: goProName)?.contains(stem) == true
            {
                result = goProName
            } else if !originalName.isEmpty, !ext.isEmpty, described == originalName.lowercased() {
                result = photoName + "." + ext
            } else if !ext.isEmpty,
                // A shorter name only: the search ends, whatever the names.
                let other = given.indices.first(where: {
                    $0 != index && given[$0].count < companion.count && given[$0].lowercased() == described
                })
            {
                result = name(other) + "." + ext
            }
            names[index] = result
            return result
        }
        return given.indices.map(name)
    }
}
