import Foundation

/// A photo or video inspected, then copied and hashed into a staged file no one else can see yet
/// (or, for the shared library's single-PUT uploads, hashed where it is: `inPlaceUpTo`): the first
/// step of every backend that stores files (catalog, folders, shared).
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
    /// The files saved with it (``Media/companions``), staged beside it in the same directory.
    package let companions: [Companion]
    /// `true` when ``file`` is the input file itself, hashed where it is and not copied (see
    /// `inPlaceUpTo`): its descriptor is ours to close, the file is never removed or renamed.
    package let isInPlace: Bool

    /// A file saved with the photo (a sidecar, the raw of a pair), copied and hashed like it.
    package struct Companion: Sendable {
        package let role: MediaCompanion.Role
        /// Its name when saved (`IMG_1.xmp`).
        package let originalName: String
        package let file: FileSystem.StagedFile
        package let byteSize: Int64
        package let sha256: String
        package let modified: FileStatus.Time

        /// Its extension as the library names it: lowercase, letters and digits only (`xmp`).
        package var fileExtension: String {
            let ext = (originalName as NSString).pathExtension.lowercased()
            let clean = ext.filter { $0.isASCII && ($0.isLetter || $0.isNumber) }
            return clean.isEmpty ? "bin" : String(clean.prefix(8))
        }
    }

    /// Inspects `media` (nothing is created for a bad file), opens the directory to stage in with
    /// `directory`, and copies the media into a new staged file there: an `O_TMPFILE` inode, else a
    /// hidden ``StagingName`` file owned by this process, registered in `owners` first so recovery
    /// can tell it apart from a crashed save's leftover. With `flush`, the data is `fsync`ed.
    ///
    /// On failure nothing staged is left and the directory is closed (unless `ownsDirectory` is
    /// `false`: a directory shared by several items); on success ``discard()`` or publishing and
    /// closing the directory is the caller's job.
    ///
    /// `inspected` is told what the media is as soon as it is known, before anything is copied.
    ///
    /// `inPlaceUpTo`: an input file of at most this many bytes is hashed where it is instead of
    /// copied (``isInPlace``), for a library whose store checks the bytes it receives against that
    /// hash (an object store's SHA-256 check): a file changed after hashing is refused there, so
    /// the copy, which guards the other libraries against it, is not needed.
    ///
    /// `permissions`: the most a copy may allow (default: ``FileSystem/fileMode(for:)`` of the
    /// folder, `0600` unless the library is shared with its group); a copy never allows more than
    /// the file it was made from.
    package init(
        _ media: Media, owners: String, flush: Bool, ownsDirectory: Bool = true, inPlaceUpTo: UInt64? = nil,
        permissions: mode_t? = nil, inspected: (MediaMetadata) -> Void = { _ in },
        in directory: () throws -> FileSystem.Descriptor
    ) throws {
        let reader = try MediaReader(media, readingWholeUpTo: HashingCopy.wholeFileLimit)
        inspected(reader.metadata)
        let folder = try directory()
        let staged: FileSystem.StagedFile
        if let limit = inPlaceUpTo, reader.size <= limit,
            let hashed = try Self.hashInPlace(reader, folder, ownsDirectory)
        {
            staged = FileSystem.StagedFile(descriptor: hashed.file, directory: folder, temporaryName: nil)
            sha256 = hashed.sha256
            isInPlace = true
        } else {
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
                let allowed = permissions ?? FileSystem.fileMode(for: folder.path)
                let mode = Self.permissions(allowed, source: reader.permissions)
                // Staged files are made with the folder's file mode: a copy that keeps it needs no
                // `fchmod` when that mode is its owner's alone (no umask widens a mode; one that
                // took the owner's own bits away would leave the library unable to read its files).
                if mode != FileSystem.fileMode(for: folder.path) || mode & 0o077 != 0 {
                    do { try FileSystem.setPermissions(staged.descriptor, mode) } catch {
                        throw error.libraryError("write the photo")
                    }
                }
                if flush {
                    do { try FileSystem.fsync(staged.descriptor) } catch { throw error.libraryError("write the photo") }
                }
            } catch {
                FileSystem.abandon(staged)
                if ownsDirectory { FileSystem.close(folder) }
                throw error
            }
            isInPlace = false
        }
        var companions: [Companion] = []
        do {
            let allowed = permissions ?? FileSystem.fileMode(for: folder.path)
            for companion in media.companions {
                companions.append(
                    try Self.stage(companion, in: folder, owners: owners, flush: flush, permissions: allowed))
            }
        } catch {
            for companion in companions { FileSystem.abandon(companion.file) }
            // (In place: only our descriptor is closed; the input file is never removed.)
            FileSystem.abandon(staged)
            if ownsDirectory { FileSystem.close(folder) }
            throw error
        }
        self.companions = companions
        file = staged
        byteSize = Int64(reader.size)
        metadata = reader.metadata
        originalFilename = media.originalFilename
        modified = reader.modified
    }

    /// The input hashed where it is (``MediaReader/hashInPlace()``); `nil` for data in memory. On
    /// failure the folder is closed when it is the item's own.
    private static func hashInPlace(
        _ reader: MediaReader, _ folder: FileSystem.Descriptor, _ ownsDirectory: Bool
    ) throws -> (sha256: String, file: FileSystem.Descriptor)? {
        do { return try reader.hashInPlace() } catch {
            if ownsDirectory { FileSystem.close(folder) }
            throw error
        }
    }

    /// Copies and hashes one companion file into a staged file in `folder`, keeping its
    /// modification time. A companion must be a readable regular file: a missing or unreadable one
    /// fails the save of its photo (naming the companion), so nothing is saved without it.
    private static func stage(
        _ companion: MediaCompanion, in folder: FileSystem.Descriptor, owners: String, flush: Bool,
        permissions allowed: mode_t
    ) throws -> Companion {
        let shown = companion.path.description
        let (source, version): (FileSystem.Descriptor, FileSystem.FileVersion)
        do { (source, version) = try FileSystem.openForCopying(companion.path) } catch {
            throw error.inputError(file: shown)
        }
        guard version.isRegularFile else {
            throw AlbumError(
                .notMedia,
                "\(shown) is not a regular file (a folder, pipe, socket or device); nothing was saved for its photo.",
                file: shown)
        }
        let staged: FileSystem.StagedFile
        do {
            staged = try FileSystem.stage(in: folder, as: StagingName(kind: "partial")) { () throws(SystemError) in
                try ProcessOwner.noteHiddenStaging(in: owners)
            }
        } catch {
            throw AlbumError.library(error, "stage the photo", path: folder.path)
        }
        do {
            let sha256 = try MediaReader.copy(source, version: version, named: shown, to: staged.descriptor)
            let modified = FileStatus.Time(
                seconds: Int(version.modified.tv_sec), nanoseconds: Int(version.modified.tv_nsec))
            do {
                try FileSystem.setModificationTime(staged.descriptor, to: modified)
                try FileSystem.setPermissions(staged.descriptor, permissions(allowed, source: version.permissions))
                if flush { try FileSystem.fsync(staged.descriptor) }
            } catch {
                throw error.libraryError("write the photo")
            }
            return Companion(
                role: companion.role, originalName: companion.fileName, file: staged, byteSize: Int64(version.size),
                sha256: sha256, modified: modified)
        } catch {
            FileSystem.abandon(staged)
            throw error
        }
    }

    /// The permission bits of a copy: what `allowed` allows and the source did (read and write
    /// bits only), readable by its owner at least.
    static func permissions(_ allowed: mode_t, source: mode_t?) -> mode_t {
        (allowed & (source ?? allowed) & 0o666) | 0o400
    }

    /// Closes and removes the staged file (it will not be published) and closes its directory.
    package func discard() {
        for companion in companions { FileSystem.abandon(companion.file) }
        FileSystem.abandon(file)
        FileSystem.close(file.directory)
    }
}
