import AlbumKitCore
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An album folder moved aside while being deleted: its hidden name in its parent, and the note in
/// `staging/` that lets the sweep move it back after a crash.
struct FolderAside {
    let name: String
    let note: String
    /// The parent folder's path below the root.
    let parent: String

    struct Note: Codable {
        var parent: String
        var aside: String
        var folder: String
    }

    func encoded(folder: String) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding three strings cannot fail.
        return Array((try? encoder.encode(Note(parent: parent, aside: name, folder: folder))) ?? Data())
    }

    /// Drops the note (the folder is back, in the Trash, or deleted as asked).
    func finish(state: FileSystem.Descriptor) {
        // The note stays if it cannot be removed: the next open finds nothing aside and drops it.
        guard let staging = try? FolderLibraryState.openStaging(state: state) else { return }
        // An unremovable note stays: the next open finds nothing aside and drops it.
        try? FileSystem.unlink(note, in: staging)
    }
}
