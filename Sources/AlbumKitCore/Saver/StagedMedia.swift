/// A photo or video inspected, then copied and hashed into a staged file no one else can see yet:
/// the first step of every backend that writes files (catalog and folders).
///
/// ```swift
/// let staged = try StagedMedia(.file(url), owners: ownersPath, flush: false) { try openShard() }
/// try FileSystem.publish(staged.file, as: "\(id).jpg")
/// ```
package struct StagedMedia: Sendable {
    /// The staged file and the directory it will be published in.
    package let file: FileSystem.StagedFile
    package let byteSize: Int64
    package let sha256: String
    package let metadata: MediaMetadata
    /// The original file name to record, if known.
    package let originalFilename: String?
    /// The input file's modification time (`nil` for in-memory data), for backends that keep it.
    package let modified: FileStatus.Time?

    /// Inspects `media` (nothing is created for a bad file), opens the directory to stage in with
    /// `directory`, and copies the media into a new staged file there: an `O_TMPFILE` inode, else a
    /// hidden ``StagingName`` file owned by this process, registered in `owners` first so recovery
    /// can tell it apart from a crashed save's leftover. With `flush`, the data is `fsync`ed.
    ///
    /// On failure nothing staged is left and the directory is closed (unless `ownsDirectory` is
    /// `false`: a directory shared by several items); on success ``discard()`` or publishing and
    /// closing the directory is the caller's job.
    package init(
        _ media: Media, owners: String, flush: Bool, ownsDirectory: Bool = true,
        in directory: () throws -> FileSystem.Descriptor
    ) throws {
        let reader = try MediaReader(media)
        let folder = try directory()
        let staged: FileSystem.StagedFile
        do {
            try ProcessOwner.register(in: owners)
            staged = try FileSystem.stage(in: folder, as: StagingName(kind: "partial")) { () throws(SystemError) in
                try ProcessOwner.noteHiddenStaging(in: owners)
            }
        } catch {
            if ownsDirectory { FileSystem.close(folder) }
            throw AlbumError.library(error, "stage the photo", path: folder.path)
        }
        do {
            sha256 = try reader.copy(to: staged.descriptor)
            if flush {
                do { try FileSystem.fsync(staged.descriptor) } catch { throw error.libraryError("write the photo") }
            }
        } catch {
            FileSystem.abandon(staged)
            if ownsDirectory { FileSystem.close(folder) }
            throw error
        }
        file = staged
        byteSize = Int64(reader.size)
        metadata = reader.metadata
        originalFilename = media.originalFilename
        modified = reader.modified
    }

    /// Closes and removes the staged file (it will not be published) and closes its directory.
    package func discard() {
        FileSystem.abandon(file)
        FileSystem.close(file.directory)
    }
}
