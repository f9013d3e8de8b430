import AlbumKitCore
import Foundation

/// The identity of a folder album: a small hidden JSON file, `.albumkit-album`, inside the album
/// folder. It moves with the folder when the user renames or moves it in a file manager, so the
/// album keeps its identifier; scanners skip it (hidden, not a media extension).
///
/// Why a file and not an extended attribute (`user.albumkit.id`): user xattrs are missing on vfat
/// and exFAT (SD cards, USB disks), many NFS/SMB mounts and older tmpfs, and are silently dropped by
/// `cp` without `--preserve=xattr`, `rsync` without `-X` and most sync clients. A hidden file works
/// on every file system and survives every copy tool.
///
/// ```json
/// {"albumkit":1,"created":1714000000,"folder":"AC∕DC","id":"6f1c…","inode":1835011,"title":"AC/DC"}
/// ```
package struct FolderAlbumMarker: Codable, Sendable, Hashable {
    /// The marker file's name.
    package static let fileName = ".albumkit-album"

    /// Marker format version.
    package var albumkit: Int = 1
    /// The album identifier (a lowercase UUID).
    package var id: String
    /// The title as typed when AlbumKit last named the folder.
    package var title: String
    /// The folder name AlbumKit gave; a different current name means the user renamed the folder,
    /// and the folder name is then the title.
    package var folder: String
    /// When the album was created (seconds since 1970); orders albums with the same title.
    package var created: Double
    /// The folder's inode when AlbumKit wrote the marker. A folder renamed or moved on its disk
    /// keeps its inode; a copy of it (with this file) does not. So when the folder and its copy
    /// are both renamed, the original keeps the album's identifier. Missing in older markers.
    package var inode: UInt64?

    package init(id: String, title: String, folder: String, created: Double, inode: UInt64? = nil) {
        self.id = id
        self.title = title
        self.folder = folder
        self.created = created
        self.inode = inode
    }

    /// The marker of the folder `directory`, `nil` when it has none or it is not readable JSON.
    ///
    /// - Throws: only when the process has no file descriptor left to read it with.
    package static func read(in directory: FileSystem.Descriptor) throws(SystemError) -> FolderAlbumMarker? {
        guard
            let bytes = try FileSystem.unlessOutOfDescriptors({ () throws(SystemError) in
                try FileSystem.readSmallFile(fileName, in: directory, limit: 16 * 1024)
            }) ?? nil,
            // A marker that is not ours (torn, foreign) makes an unmarked folder: identified by its path.
            let marker = try? JSONDecoder().decode(FolderAlbumMarker.self, from: Data(bytes)),
            !marker.id.isEmpty, !marker.id.contains("/")
        else { return nil }
        return marker
    }

    /// The marker as bytes to write.
    package var encoded: [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding strings and numbers cannot fail.
        return Array((try? encoder.encode(self)) ?? Data())
    }
}
