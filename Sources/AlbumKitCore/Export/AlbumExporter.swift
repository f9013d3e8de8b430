import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Copies an album's originals into a folder, for every library that keeps its originals as files.
///
/// Each file keeps its original name; a name already in the folder (or exported earlier in the
/// run) becomes `name 2.jpg`, `name 3.jpg`, …. A file is written invisibly, flushed, given its
/// capture date as modification time, then published under its name without ever replacing
/// anything; the folder is flushed at the end. Nothing in the folder is overwritten or removed.
struct AlbumExporter {
    let directory: URL
    /// Writes an original that is not a file (a shared library's object) into the staged file;
    /// `false` when the library has no copy to give.
    var fetch: (AssetInfo, FileSystem.Descriptor) throws -> Bool = { _, _ in false }

    func export(_ assets: [AssetInfo]) throws -> ExportReport {
        try prepareDirectory()
        let folder: FileSystem.Descriptor
        do { folder = try FileSystem.openDirectory(directory.path) } catch {
            throw error.libraryError("open the export folder")
        }
        defer { FileSystem.close(folder) }
        var taken = Set((try? FileSystem.names(inDirectoryAt: directory.path)) ?? [])
        var exported: [ExportReport.File] = []
        var failures: [ExportReport.Failure] = []
        for asset in assets {
            do {
                exported.append(try copy(asset, into: folder, taken: &taken))
            } catch {
                let error = AlbumError.wrap(error)
                failures.append(ExportReport.Failure(assetID: asset.id, code: error.code, message: error.message))
                // A full disk or a vanished folder fails the rest the same way: stop.
                if error.code == .notEnoughSpace || error.code == .libraryNotFound || error.code == .libraryUnwritable {
                    break
                }
            }
        }
        do { try FileSystem.fsync(folder) } catch { throw error.libraryError("flush the export folder") }
        return ExportReport(directory: directory, exported: exported, failures: failures)
    }

    /// Creates the folder (and its parents); refuses a file in its place.
    private func prepareDirectory() throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw AlbumError(.invalidArgument, "\(directory.path) is a file, not a folder to export into.")
            }
            return
        }
        do { try FileSystem.makeDirectory(atPath: directory.path) } catch {
            // The export folder is not the library: a missing or non-folder parent is the target's
            // problem ("was the library moved?" would mislead).
            if error.errno == ENOTDIR || error.errno == ENOENT {
                throw AlbumError(
                    .invalidArgument,
                    "Cannot create the export folder \(directory.path): a part of that path is a file, not a folder, or cannot be made there.",
                    underlying: error)
            }
            throw error.libraryError("create the export folder")
        }
    }

    private func copy(
        _ asset: AssetInfo, into folder: FileSystem.Descriptor, taken: inout Set<String>
    ) throws -> ExportReport.File {
        let fallback = asset.fileURL?.lastPathComponent ?? asset.id
        let base = FolderNaming.safeComponent(asset.originalFilename ?? fallback, fallback: fallback)
        let staged: FileSystem.StagedFile
        do { staged = try FileSystem.stage(in: folder, as: StagingName(kind: "partial")) } catch {
            throw error.libraryError("write into the export folder")
        }
        var published = false
        defer { if !published { FileSystem.abandon(staged) } }
        let modified = asset.metadata?.captureDate.flatMap(Self.date(fromCaptureDate:))
        let size: UInt64
        do {
            if let source = asset.fileURL {
                size = try copyFile(source, base: base, into: staged.descriptor)
            } else if try fetch(asset, staged.descriptor) {
                size = UInt64(try FileSystem.fileStatus(of: staged.descriptor).size)
            } else {
                throw AlbumError(
                    .notSupported,
                    "The library keeps asset \(asset.id) (\(asset.originalFilename ?? "?")) out of reach of files; export it from its app."
                )
            }
            if let modified { try FileSystem.setModificationTime(staged.descriptor, to: modified) }
            try FileSystem.fsync(staged.descriptor)
        } catch let error as SystemError {
            throw error.libraryError("write \(base) into the export folder")
        }
        var attempt = 1
        while true {
            let name = FolderNaming.fileName(base, attempt: attempt)
            attempt += 1
            guard !taken.contains(name) else { continue }
            do {
                try FileSystem.publish(staged, as: name)
            } catch  where error.errno == EEXIST {
                taken.insert(name)
                continue
            } catch {
                throw error.libraryError("write \(name) into the export folder")
            }
            published = true
            FileSystem.close(staged.descriptor)
            taken.insert(name)
            return ExportReport.File(
                assetID: asset.id, name: name, originalFilename: asset.originalFilename,
                byteSize: Int64(size), modificationDate: modified)
        }
    }

    /// Copies the file `source` into `target`; returns its size.
    private func copyFile(_ source: URL, base: String, into target: FileSystem.Descriptor) throws -> UInt64 {
        let input: (FileSystem.Descriptor, size: UInt64)
        do { input = try FileSystem.openForReading(source.path) } catch {
            throw AlbumError(
                error.errno == ENOENT ? .fileNotFound : .fileUnreadable,
                "The original of \(base) (\(source.path)) cannot be read: \(error). Run `album verify`.",
                file: source.path)
        }
        defer { FileSystem.close(input.0) }
        let copied = try FileSystem.forEachChunk(of: input.0) { try FileSystem.write(target, $0) }
        guard copied == input.size else {
            throw AlbumError(.fileUnreadable, "\(source.path) changed size while it was exported; try again.")
        }
        return input.size
    }

    /// `2024-05-01T10:20:30Z` / `+02:00` as that instant; without an offset, as the local time it
    /// is on this computer (a camera's wall clock).
    static func date(fromCaptureDate text: String) -> Date? {
        if let date = ISO8601DateFormatter().date(from: text) { return date }  // with Z or an offset
        let local = DateFormatter()
        local.locale = Locale(identifier: "en_US_POSIX")
        local.timeZone = TimeZone.current
        local.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
        return local.date(from: text)
    }
}
