/// The `.xmp` sidecars of a photo, which darktable, digiKam, Lightroom and exiftool write next to it
/// and which travel with it (to the Trash, out of an album).
///
/// - `IMG_1.JPG.xmp` (darktable, digiKam's default) belongs to `IMG_1.JPG` alone;
/// - `IMG_1.xmp` (Lightroom, Bridge, exiftool) belongs to every photo named `IMG_1.*`, so it
///   travels only with the last of them (a raw + JPEG pair keeps it while either is there).
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
        let siblings = entries.filter { name in
            name != photo && FolderNaming.isMediaFileName(name) && name.hasPrefix(stem + ".")
                && !name.dropFirst(stem.count + 1).contains(".")
        }
        if siblings.isEmpty {
            for ext in ["xmp", "XMP"] where present.contains(stem + "." + ext) { found.append(stem + "." + ext) }
        }
        return found
    }
}
