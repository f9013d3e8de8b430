import AlbumKitCore
import Foundation

extension PhotoLibrary {
    /// A folder library at `url`: every visible sub-folder is an album (as digiKam, Shotwell,
    /// gThumb and file managers show it), and its photo and video files are the album's assets.
    ///
    /// ```swift
    /// let library = try PhotoLibrary.folders(at: URL(fileURLWithPath: "/media/card/Photos"))
    /// try await library.album(titled: "Trips").save(.file(photoURL))   // → /media/card/Photos/Trips/IMG_1.jpg
    /// ```
    ///
    /// The folder must exist, but a missing one is reported when it is used (a disk may be mounted
    /// later): saving then fails with `.libraryNotFound` and writes nothing anywhere.
    /// Saving without an album puts the file in `url` itself.
    ///
    /// - Throws: `.libraryNotFound` when `url` exists and is a file, not a folder.
    public static func folders(at url: URL) throws -> PhotoLibrary {
        PhotoLibrary(backend: try FolderBackend.open(at: url))
    }
}
