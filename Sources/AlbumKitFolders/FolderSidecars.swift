import AlbumKitCore

/// The files that go with a photo when it moves (to the Trash, out of an album): its companions
/// as ``CompanionGrouping`` finds them among the names of its folder.
///
/// - the raw of a RAW+JPEG pair, and every sidecar of the pair, go with the JPEG;
/// - `IMG_1.JPG.xmp` (darktable, digiKam's default) belongs to `IMG_1.JPG` alone;
/// - `IMG_1.xmp` or `IMG_1.AAE` (Lightroom, Bridge, exiftool, Apple) belongs to every file named
///   `IMG_1.*`, so it travels only with the last of them (a raw + video of one stem keeps it
///   while either is there, whether or not AlbumKit knows the raw format).
///
/// ```swift
/// FolderSidecars.names(for: "IMG_1.JPG", among: ["IMG_1.JPG", "IMG_1.JPG.xmp", "IMG_1.xmp"])
/// // ["IMG_1.JPG.xmp", "IMG_1.xmp"]
/// ```
package enum FolderSidecars {
    /// The companions of `photo` among the entry names of its folder.
    package static func names(for photo: String, among entries: [String]) -> [String] {
        guard let group = CompanionGrouping(entries).groups.first(where: { $0.primary == photo }) else { return [] }
        if group.companions.contains(where: { $0.role == .raw }) { return group.companions.map(\.name) }
        guard let dot = photo.lastIndex(of: "."), dot != photo.startIndex else { return group.companions.map(\.name) }
        let stem = String(photo[..<dot])
        // Any other file of that stem keeps the shared sidecar, media or not: a raw format AlbumKit
        // does not know (`.NRW`, `.3FR`, `.X3F`) is still the photo the sidecar describes.
        let hasSiblings = entries.contains { name in
            name != photo && name.hasPrefix(stem + ".") && !name.dropFirst(stem.count + 1).contains(".")
                && !CompanionGrouping.isSidecar(name) && !group.companions.contains { $0.name == name }
        }
        return group.companions.map(\.name).filter { name in
            !(hasSiblings && !name.dropFirst(stem.count + 1).contains("."))
        }
    }
}
