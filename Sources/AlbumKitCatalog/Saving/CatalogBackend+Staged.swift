import AlbumKitCore
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension CatalogBackend {
    /// One photo copied into the library and not recorded yet (``CatalogSave/stage(_:into:alone:in:)``):
    /// its file invisible (an `O_TMPFILE` inode, or a hidden `.partial` file) in its shard folder,
    /// with its companions beside it, and the library names it will be given.
    ///
    /// ```swift
    /// let staged = try await backend.stage(media)     // originals/3f/ID.jpg, once published
    /// _ = try await backend.commit([staged], to: album)
    /// ```
    package struct Staged: Sendable {
        let id: String
        let media: StagedMedia
        /// Keeps the shard folder's descriptor (``FileSystem/StagedFile/directory``) open.
        let folders: ShardFolders
        let relativePath: String
        let fileName: String
        let shard: String
        /// This save created the shard directory: `originals/` must be flushed for a lone save.
        let createdShard: Bool
        /// What the caller asked for (creation date, location, favourite, moving its file).
        let request: Media
        /// For a lone save (one photo without companions), work started while it was staged so
        /// that its commit need not wait for it: `listing` lists its name as being published
        /// (``ProcessOwner/notePublishing(_:in:)``) while it is copied; `publishing` then gives
        /// the file its name, flushes its data, and flushes its folder. `nil` for the items of a
        /// chunk, whose commit does all of that for all of them at once.
        ///
        /// Named before its data is flushed, the file's name and its data reach the disk in one
        /// commit of a file system that journals metadata (ext4: one journal commit, not two), and
        /// the folder's flush finds nothing left to commit.
        let listing: Blocking.Work?
        let publishing: Blocking.Work?
        /// Its name is given while it is staged (``publishing``), not by its commit.
        var isPublishedWhileStaged: Bool { publishing != nil }
        var file: FileSystem.StagedFile { media.file }

        /// The library file names of its companions, beside its own: `ID-1.xmp`, `ID-2.cr2`, ….
        var companionNames: [String] {
            media.companions.indices.map { "\(id)-\($0 + 1).\(media.companions[$0].fileExtension)" }
        }

        /// Its own path and its companions', below the library's folder.
        var relativePaths: [String] {
            [relativePath] + companionNames.map { "originals/\(shard)/\($0)" }
        }

        /// Its file and its companions'.
        var files: [FileSystem.StagedFile] { [media.file] + media.companions.map(\.file) }

        /// The companions as the save records them.
        var companionRecords: [CatalogCompanion] {
            let names = companionNames
            return media.companions.indices.map { index in
                let companion = media.companions[index]
                return CatalogCompanion(
                    role: companion.role.rawValue, name: companion.originalName,
                    path: "originals/\(shard)/\(names[index])", size: companion.byteSize, sha256: companion.sha256)
            }
        }

        /// The file's metadata, with the creation date and location the caller gave in place of
        /// the file's own.
        var metadata: MediaMetadata { request.described(media.metadata) }

        /// Removes its published names (this save's own, never recorded), companions first; a name
        /// not published yet is no failure. Throws the first other failure, after trying every name.
        func unpublish() throws(SystemError) {
            var failure: SystemError?
            for name in companionNames + [fileName] {
                do throws(SystemError) { try RemovalGate.removeFile(named: name, in: file.directory) } catch {
                    if error.errno != ENOENT, failure == nil { failure = error }
                }
            }
            if let failure { throw failure }
        }
    }
}
