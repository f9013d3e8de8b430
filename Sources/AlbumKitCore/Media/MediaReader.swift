import Foundation

/// Opens, inspects, copies and hashes a media input — the media seam of every file-writing backend.
///
/// Inspection reads only headers (through ``MediaInspector``); the copy streams the file in 1 MiB
/// chunks, hashing as it goes, so memory does not grow with file size.
package final class MediaReader {
    package let displayName: String
    package let size: UInt64
    package let metadata: MediaMetadata
    /// The input file's modification time (`nil` for in-memory data), kept on the saved copy.
    package let modified: FileStatus.Time?
    /// The input file's permission bits (`nil` for in-memory data): a copy is never readable by
    /// more people than the file it was made from.
    package let permissions: mode_t?
    private let input: Input

    private enum Input {
        /// An open file and its version when it was opened (before it was inspected).
        case file(FileSystem.Descriptor, FileSystem.FileVersion)
        /// An open file, its version when opened, and all of its bytes, read at once when it was
        /// opened: inspected, hashed and copied from memory, with one read. `checked`: the file was
        /// still that version once they were read, so they are that version's bytes and need no
        /// look at the file after the copy.
        case readWhole(FileSystem.Descriptor, FileSystem.FileVersion, [UInt8], checked: Bool)
        case data(Data)
    }

    /// Opens and inspects `media`. A file of at most `readingWholeUpTo` bytes is read whole at once
    /// (one `pread`), then inspected and later copied from those bytes: for a reader that copies
    /// the file (staging), not for one that only looks at its metadata, which reads a few
    /// kilobytes.
    ///
    /// - Throws: `.fileNotFound`, `.fileUnreadable`, `.notMedia`, `.corruptMedia`, `.unsupportedMedia`.
    package init(_ media: Media, readingWholeUpTo wholeLimit: UInt64 = 0) throws {
        displayName = media.displayName
        let path: FileSystemPath
        switch media.source {
        case .file(let url): path = FileSystemPath(url.path)
        case .path(let bytes): path = bytes
        case .data, .livePhoto: path = FileSystemPath("")
        }
        switch media.source {
        case .file, .path:
            let opened: (FileSystem.Descriptor, FileSystem.FileVersion)
            var whole: [UInt8]?
            var checked = false
            if let named = media.namedStatus, named.kind == .regular, UInt64(max(named.size, 0)) <= wholeLimit {
                let read = try Self.readWhole(path, as: FileSystem.FileVersion(named), named: displayName)
                opened = (read.file, read.version)
                whole = read.bytes
                checked = read.bytes != nil
            } else {
                do { opened = try FileSystem.openForCopying(path) } catch { throw error.inputError(file: displayName) }
            }
            do {
                var inspected: MediaMetadata
                if let bytes = whole {
                    inspected = try Self.inspect(BufferByteSource(bytes: bytes), name: displayName)
                } else if opened.1.size <= wholeLimit {
                    let bytes = try Self.readWhole(opened.0, size: opened.1.size, named: displayName)
                    inspected = try Self.inspect(BufferByteSource(bytes: bytes), name: displayName)
                    whole = bytes
                } else {
                    inspected = try Self.inspect(FileByteSource(file: opened.0, size: opened.1.size), name: displayName)
                }
                for sidecar in media.companions where sidecar.role == .sidecar {
                    Self.readRating(from: sidecar.path, into: &inspected)
                }
                metadata = inspected
            } catch {
                FileSystem.close(opened.0)
                throw error
            }
            input = whole.map { .readWhole(opened.0, opened.1, $0, checked: checked) } ?? .file(opened.0, opened.1)
            size = opened.1.size
            // From the version taken at open: no second `fstat`.
            modified = FileStatus.Time(
                seconds: Int(opened.1.modified.tv_sec), nanoseconds: Int(opened.1.modified.tv_nsec))
            permissions = opened.1.permissions
        case .data(let data, _):
            input = .data(data)
            size = UInt64(data.count)
            modified = nil
            permissions = nil
            metadata = try Self.inspect(BufferByteSource(bytes: Array(data)), name: media.displayName)
        case .livePhoto(let photo, _):
            throw AlbumError(
                .unsupportedMedia,
                "\(photo.path): Live Photos can be saved only to the Apple Photos library; save the photo and the video as separate files instead.",
                file: photo.path)
        }
    }

    /// The rating and lens of an `.xmp` sidecar (``MediaMetadata/fill(fromSidecar:)``), read up to
    /// 1 MiB. A sidecar that cannot be read adds nothing here: it is copied with the photo later,
    /// and that copy reports why it cannot be read.
    private static func readRating(from path: FileSystemPath, into metadata: inout MediaMetadata) {
        guard path.lastComponent.description.lowercased().hasSuffix(".xmp"),
            // Unreadable: see above.
            let (file, version) = try? FileSystem.openForCopying(path)
        else { return }
        let count = Int(min(version.size, 1 << 20))
        var bytes = [UInt8](repeating: 0, count: count)
        // Unreadable: see above.
        guard let read = try? bytes.withUnsafeMutableBytes({ try FileSystem.read(file, into: $0, at: 0) }) else {
            return
        }
        metadata.fill(fromSidecar: Array(bytes.prefix(read)))
    }

    /// The metadata of a Live Photo's still, once both files are read and are a photo and a video:
    /// the check of every library that holds Live Photos.
    ///
    /// ```swift
    /// let still = try MediaReader.livePhotoMetadata(photo: heic, video: mov)
    /// ```
    /// - Throws: `.unsupportedMedia` when the files are not a photo and a video, and what reading
    ///   either throws.
    package static func livePhotoMetadata(photo: URL, video: URL) throws -> MediaMetadata {
        let still = try MediaReader(.file(photo)).metadata
        let motion = try MediaReader(.file(video)).metadata
        guard still.kind == .photo, motion.kind == .video else {
            throw AlbumError(
                .unsupportedMedia,
                "A Live Photo needs a photo and a video; got \(still.format.rawValue) (\(photo.lastPathComponent)) and \(motion.format.rawValue) (\(video.lastPathComponent)).",
                file: photo.path)
        }
        return still
    }

    deinit {
        switch input {
        case .file(let file, _), .readWhole(let file, _, _, _): FileSystem.close(file)
        case .data: break
        }
    }

    /// The file at `path`, whose `stat` gave `named`, opened and read whole without asking its
    /// status first: its bytes, when the file opened is still `named` once they are read (the same
    /// file, size and times: nothing changed it from that `stat` to the end of the read); else
    /// (changed since, or something else in its place) no bytes, and the version it has now, for
    /// the caller to read it as any file it opened.
    ///
    /// - Throws: when it cannot be opened, is not a regular file now, or cannot be read.
    private static func readWhole(_ path: FileSystemPath, as named: FileSystem.FileVersion, named displayName: String)
        throws -> (file: FileSystem.Descriptor, version: FileSystem.FileVersion, bytes: [UInt8]?)
    {
        let file: FileSystem.Descriptor
        do { file = try FileSystem.openForCopyingAsNamed(path) } catch { throw error.inputError(file: displayName) }
        var bytes: [UInt8]?
        var failure: Error?
        do { bytes = try readWhole(file, size: named.size, named: displayName) } catch { failure = error }
        do {
            let now = try FileSystem.version(of: file)
            if now == named, let bytes, bytes.count == Int(named.size) { return (file, now, bytes) }
            // The file that `stat` saw: its read failed for a reason of its own.
            if let failure, now == named { throw failure }
            guard now.isRegularFile else {
                throw SystemError("open", path: file.path, errno: now.isDirectory ? EISDIR : EINVAL)
                    .inputError(file: displayName)
            }
            return (file, now, nil)
        } catch {
            FileSystem.close(file)
            throw (error as? SystemError)?.inputError(file: displayName) ?? error
        }
    }

    /// The first `size` bytes of `file` in one read (fewer when the file is shorter now: the
    /// version check after the copy then refuses it as changed).
    private static func readWhole(_ file: FileSystem.Descriptor, size: UInt64, named displayName: String) throws
        -> [UInt8]
    {
        var failure: SystemError?
        let bytes = [UInt8](unsafeUninitializedCapacity: Int(size)) { buffer, count in
            do throws(SystemError) {
                count = try FileSystem.read(file, into: UnsafeMutableRawBufferPointer(buffer), at: 0)
            } catch {
                // Nothing initialised is kept: the array is empty and the error is thrown below.
                count = 0
                failure = error
            }
        }
        if let failure { throw failure.inputError(file: displayName) }
        return bytes
    }

    private static func inspect(_ source: some ByteSource, name: String) throws -> MediaMetadata {
        do {
            return try MediaInspector().inspect(source)
        } catch {
            switch error.kind {
            case .notMedia where source.size == 0 && Self.isNamedAsMedia(name):
                // A camera that did not finish writing leaves such a file: a photo lost, not a stray file.
                throw AlbumError(.corruptMedia, "\(name): empty file (0 bytes). Nothing was saved for it.", file: name)
            case .notMedia:
                throw AlbumError(.notMedia, "\(name) is not a photo or video: \(error.reason).", file: name)
            case .corrupt:
                if let cut = error.cutShort {
                    // A camera or a copy that stopped mid-write: how much of the file is there.
                    let how =
                        cut.expected.map { "at \(cut.present) of at least \($0) bytes" }
                        ?? "after \(cut.present) bytes"
                    throw AlbumError(
                        .corruptMedia, "\(name) is cut short \(how): \(error.reason). Nothing was saved for it.",
                        file: name)
                }
                throw AlbumError(
                    .corruptMedia, "\(name) is damaged: \(error.reason). Nothing was saved for it.", file: name)
            case .unreadable:
                throw AlbumError(.fileUnreadable, "\(name) cannot be read: \(error.reason).", file: name)
            }
        }
    }

    /// Whether `name` (a path or a file name) ends in a photo, video or camera raw extension
    /// (`IMG_0203.JPG`, `MVI_1.MOV`, `IMG_1.NEF`).
    static func isNamedAsMedia(_ name: String) -> Bool {
        let last = FolderNaming.lastComponent(name)
        return FolderNaming.isMediaFileName(last) || CompanionGrouping.isRaw(last)
    }

    /// Copies the whole input into `destination` (see ``HashingCopy``), returning its SHA-256 (hex).
    ///
    /// - Throws: library write errors mapped to `AlbumError` (`.notEnoughSpace`, …), input read errors
    ///   naming the file, and `.fileUnreadable` if the input changed (size, modification or change
    ///   time) between being opened and the end of the copy.
    package func copy(to destination: FileSystem.Descriptor) throws -> String {
        switch input {
        case .data(let data):
            var hasher = SHA256Hasher()
            let failure = data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> SystemError? in
                hasher.update(bytes)
                do { try FileSystem.write(destination, bytes) } catch { return error as? SystemError }
                return nil
            }
            if let failure { throw failure.libraryError("write the photo") }
            return hasher.finalize()
        case .file(let file, let version):
            return try Self.copy(file, version: version, named: displayName, to: destination)
        case .readWhole(let file, let version, let bytes, let checked):
            do {
                return try HashingCopy.copy(
                    bytes, readFrom: file, to: destination, expecting: checked ? nil : version
                ).sha256
            } catch .source(let error) {
                throw error.inputError(file: displayName)
            } catch .destination(let error) {
                throw error.libraryError("write the photo")
            } catch .changed {
                throw Self.changed(file, named: displayName)
            }
        }
    }

    /// For a file input: its SHA-256, read where it is, and a descriptor of its own on it (the
    /// caller closes it); `nil` for data in memory, which has no file to read from.
    ///
    /// - Throws: as ``copy(to:)``.
    package func hashInPlace() throws -> (sha256: String, file: FileSystem.Descriptor)? {
        let file: FileSystem.Descriptor
        let version: FileSystem.FileVersion
        var whole: [UInt8]?
        var checked = false
        switch input {
        case .data: return nil
        case .file(let opened, let opening): (file, version) = (opened, opening)
        case .readWhole(let opened, let opening, let bytes, let wasChecked):
            (file, version, whole, checked) = (opened, opening, bytes, wasChecked)
        }
        let sha256: String
        do {
            if let whole {
                sha256 = try HashingCopy.hash(whole, readFrom: file, expecting: checked ? nil : version).sha256
            } else {
                sha256 = try HashingCopy.hash(file, expecting: version).sha256
            }
        } catch .source(let error), .destination(let error) {
            throw error.inputError(file: displayName)
        } catch .changed {
            throw Self.changed(file, named: displayName)
        }
        do { return (sha256, try FileSystem.duplicate(file)) } catch { throw error.inputError(file: displayName) }
    }

    /// Copies the open input file `file` (at `version` when opened; named `displayName` in
    /// messages) into `destination`, returning its SHA-256 (hex): a photo, or a file kept with it.
    package static func copy(
        _ file: FileSystem.Descriptor, version: FileSystem.FileVersion, named displayName: String,
        to destination: FileSystem.Descriptor
    ) throws -> String {
        do {
            return try HashingCopy.copy(file, to: destination, expecting: version).sha256
        } catch .source(let error) {
            throw error.inputError(file: displayName)
        } catch .destination(let error) {
            throw error.libraryError("write the photo")
        } catch .changed {
            throw changed(file, named: displayName)
        }
    }

    /// The error for an input that changed while it was read: removed, or changed.
    private static func changed(_ file: FileSystem.Descriptor, named displayName: String) -> AlbumError {
        // Removing a file changes its status too: say which happened.
        if let status = try? FileSystem.fileStatus(of: file), status.linkCount == 0 {
            return AlbumError(
                .fileNotFound, "\(displayName) was removed while it was being saved; nothing was saved for it.",
                file: displayName)
        }
        return AlbumError(
            .fileUnreadable, "\(displayName) changed while it was being saved; try again.", file: displayName)
    }
}
