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
    private let input: Input

    private enum Input {
        case file(FileSystem.Descriptor)
        case data(Data)
    }

    /// Opens and inspects `media`.
    ///
    /// - Throws: `.fileNotFound`, `.fileUnreadable`, `.notMedia`, `.corruptMedia`, `.unsupportedMedia`.
    package init(_ media: Media) throws {
        displayName = media.displayName
        let path: FileSystemPath
        switch media {
        case .file(let url): path = FileSystemPath(url.path)
        case .path(let bytes): path = bytes
        case .data, .livePhoto: path = FileSystemPath("")
        }
        switch media {
        case .file, .path:
            let opened: (FileSystem.Descriptor, size: UInt64)
            do { opened = try FileSystem.openForReading(path) } catch { throw error.inputError(file: displayName) }
            do {
                metadata = try Self.inspect(FileByteSource(file: opened.0, size: opened.size), name: displayName)
            } catch {
                FileSystem.close(opened.0)
                throw error
            }
            input = .file(opened.0)
            size = opened.size
            modified = try? FileSystem.fileStatus(of: opened.0).modified
        case .data(let data, _):
            input = .data(data)
            size = UInt64(data.count)
            modified = nil
            metadata = try Self.inspect(BufferByteSource(bytes: Array(data)), name: media.displayName)
        case .livePhoto(let photo, _):
            throw AlbumError(
                .unsupportedMedia,
                "\(photo.path): Live Photos can be saved only to the Apple Photos library; save the photo and the video as separate files instead.",
                file: photo.path)
        }
    }

    deinit {
        if case .file(let file) = input { FileSystem.close(file) }
    }

    private static func inspect(_ source: some ByteSource, name: String) throws -> MediaMetadata {
        do {
            return try MediaInspector().inspect(source)
        } catch {
            switch error.kind {
            case .notMedia:
                throw AlbumError(.notMedia, "\(name) is not a photo or video: \(error.reason).", file: name)
            case .corrupt:
                throw AlbumError(
                    .corruptMedia, "\(name) is damaged: \(error.reason). Nothing was saved for it.", file: name)
            case .unreadable:
                throw AlbumError(.fileUnreadable, "\(name) cannot be read: \(error.reason).", file: name)
            }
        }
    }

    /// Streams the whole input into `destination`, returning its SHA-256 (hex).
    ///
    /// - Throws: library write errors mapped to `AlbumError` (`.notEnoughSpace`, …), input read errors
    ///   naming the file, and `.fileUnreadable` if the input changed size while being copied.
    package func copy(to destination: FileSystem.Descriptor) throws -> String {
        var hasher = SHA256Hasher()
        switch input {
        case .data(let data):
            let failure = data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> SystemError? in
                hasher.update(bytes)
                do { try FileSystem.write(destination, bytes) } catch { return error as? SystemError }
                return nil
            }
            if let failure { throw failure.libraryError("write the photo") }
        case .file(let file):
            var writeFailure: SystemError?
            let offset: UInt64
            do {
                offset = try FileSystem.forEachChunk(of: file) { slice in
                    hasher.update(slice)
                    do { try FileSystem.write(destination, slice) } catch {
                        writeFailure = error as? SystemError
                        throw error
                    }
                }
            } catch {
                if let writeFailure { throw writeFailure.libraryError("write the photo") }
                throw (error as? SystemError)?.inputError(file: displayName)
                    ?? AlbumError.wrap(error, file: displayName)
            }
            guard offset == size else {
                throw AlbumError(
                    .fileUnreadable, "\(displayName) changed size while it was being saved; try again.",
                    file: displayName)
            }
        }
        return hasher.finalize()
    }
}
