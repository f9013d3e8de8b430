import AlbumKitCore
/// The `.xmp` sidecars of a photo, which darktable, digiKam, Lightroom and exiftool write next to it
/// and which travel with it (to the Trash, out of an album).
///
/// - `IMG_1.JPG.xmp` (darktable, digiKam's default) belongs to `IMG_1.JPG` alone;
/// - `IMG_1.xmp` (Lightroom, Bridge, exiftool) belongs to every file named `IMG_1.*`, so it
///   travels only with the last of them (a raw + JPEG pair keeps it while either is there, whether
///   or not AlbumKit knows the raw format).
///
/// ```swift
/// FolderSidecars.names(for: "IMG_1.JPG", among: ["IMG_1.JPG", "IMG_1.JPG.xmp", "IMG_1.xmp"])
/// // ["IMG_1.JPG.xmp", "IMG_1.xmp"]
/// ```
package enum FolderSidecars {
    /// The sidecars of `photo` among the entry names of its folder.
    package static func names(for photo: String, among entries: [String]) -> [String] {
        let present = Set(entries)
        var found: [String] = []
        for ext in ["xmp", "XMP"] where present.contains(photo + "." + ext) { found.append(photo + "." + ext) }
        guard let dot = photo.lastIndex(of: "."), dot != photo.startIndex else { return found }
        let stem = String(photo[..<dot])
        // Any other file of that stem keeps the shared sidecar, media or not: a raw format AlbumKit
        // does not know (`.NRW`, `.3FR`, `.X3F`) is still the photo the sidecar describes.
        let siblings = entries.filter { name in
            name != photo && name.hasPrefix(stem + ".") && !name.dropFirst(stem.count + 1).contains(".")
                && name.dropFirst(stem.count + 1).lowercased() != "xmp"
        }
        if siblings.isEmpty {
            for ext in ["xmp", "XMP"] where present.contains(stem + "." + ext) { found.append(stem + "." + ext) }
        }
        return found
    }
}
