import AlbumKitCore
/// Folders inside a folder library that are never albums: hidden folders, AlbumKit catalog
/// libraries, and the data other programs keep next to photos. They are never listed, saved into,
/// renamed or deleted, and nothing below them is an album.
///
/// ```swift
/// FolderExclusions.isExcluded(folderNamed: "Family.albumlibrary", holding: [])       // true
/// FolderExclusions.isExcluded(folderNamed: "2024", holding: ["IMG_1.jpg"])           // false
/// ```
package enum FolderExclusions {
    /// Folder name endings of photo-library packages: AlbumKit catalogs, Apple Photos and
    /// Aperture libraries, Lightroom catalog data and previews.
    static let packageSuffixes = [
        ".albumlibrary", ".photoslibrary", ".photolibrary", ".aplibrary", ".lrdata", ".lrlibrary",
    ]

    /// Folder names that belong to file systems, NAS boxes and thumbnail caches.
    static let reservedNames: Set<String> = [
        "lost+found", "@eaDir", "#recycle", "#snapshot", "$RECYCLE.BIN", "System Volume Information",
        ".Trash", "@Recycle", "@Recently-Snapshot",
    ]

    /// File names whose presence makes a folder another program's data, not photos:
    /// an AlbumKit catalog, Shotwell's and darktable's databases, Android's "no media here" marker.
    static let dataFiles: Set<String> = [
        "catalog.sqlite", "photo.db", "library.db", "data.db", ".nomedia",
    ]

    /// Whether the folder `name`, whose entries are `entries`, is kept out of the library.
    package static func isExcluded(folderNamed name: String, holding entries: [String]) -> Bool {
        isExcluded(folderNamed: name) || entries.contains(where: dataFiles.contains)
    }

    /// Whether the folder name alone keeps it out (hidden, reserved, or a library package).
    package static func isExcluded(folderNamed name: String) -> Bool {
        if name.hasPrefix(".") || reservedNames.contains(name) { return true }
        let lowered = name.lowercased()
        return packageSuffixes.contains { lowered.hasSuffix($0) }
    }
}
