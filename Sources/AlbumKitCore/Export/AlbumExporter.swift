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
///
/// Exporting again into the same folder is a sync: an asset whose identical copy (same size and
/// SHA-256) already holds one of the names it would get is not written again, and is reported in
/// ``ExportReport/alreadyThere``.
struct AlbumExporter {
    let directory: URL
    /// Writes an original that is not a file (a shared library's object) into the staged file;
    /// `false` when the library has no copy to give.
    var fetch: (AssetInfo, FileSystem.Descriptor) throws -> Bool = { _, _ in false }
    /// Writes a companion that is not a file (a shared library's object) into the staged file;
    /// `false` when the library has no copy to give.
    var fetchCompanion: (AssetCompanion, FileSystem.Descriptor) throws -> Bool = { _, _ in false }
    /// Told after each asset.
    var progress: (@Sendable (ExportProgress) -> Void)?
    /// Predicts the report (names, files already there) and writes nothing, not even the folder.
    var dryRun = false
    /// The name each asset is exported under before any numbering, given the asset and its place
    /// in the album (1 for the first); its original name when `nil`. Its companions follow it.
    var naming: (@Sendable (AssetInfo, Int) -> String)?
    /// The names `naming` gave, by asset identifier (made once per export).
    var givenNames: [String: String]?

    func export(_ assets: [AssetInfo]) throws -> ExportReport {
        if let naming, givenNames == nil {
            var named = self
            named.givenNames = Dictionary(
                assets.enumerated().map { ($1.id, naming($1, $0 + 1)) }, uniquingKeysWith: { first, _ in first })
            return try named.export(assets)
        }
        if dryRun {
            guard let status = FileSystem.fileStatus(atPath: directory.path) else {
                return predicted(assets, existing: [], folder: nil)
            }
            guard status.kind == .directory else {
                throw AlbumError(.invalidArgument, "\(directory.path) is a file, not a folder to export into.")
            }
        } else {
            try prepareDirectory()
        }
        let folder: FileSystem.Descriptor
        do { folder = try FileSystem.openDirectory(directory.path) } catch {
            throw error.libraryError("open the export folder")
        }
        let existing: Set<String>
        do { existing = Set(try FileSystem.names(in: folder)) } catch {
            throw error.libraryError("list the export folder")
        }
        if dryRun { return predicted(assets, existing: existing, folder: folder) }
        var taken = existing
        var claimed = Set<String>()  // names this run's assets are, written or found
        var exported: [ExportReport.File] = []
        var alreadyThere: [ExportReport.File] = []
        var failures: [ExportReport.Failure] = []
        let totalBytes = assets.reduce(Int64(0)) { $0 + ($1.byteSize ?? 0) }
        var doneBytes: Int64 = 0
        for (index, asset) in assets.enumerated() {
            defer {
                doneBytes += asset.byteSize ?? 0
                progress?(
                    ExportProgress(completed: index + 1, total: assets.count, bytes: doneBytes, totalBytes: totalBytes))
            }
            do {
                if var found = try identicalCopy(of: asset, in: folder, existing: existing, claimed: claimed) {
                    claimed.insert(found.name)
                    // Its companions are written where missing; one already there is kept as it is
                    // (a sidecar edited since the last export is the user's).
                    found.companions = try exportCompanions(of: asset, beside: found.name, into: folder, taken: &taken)
                    claimed.formUnion(found.companions)
                    alreadyThere.append(found)
                    continue
                }
                var (file, wasThere) = try copy(asset, into: folder, taken: &taken)
                claimed.insert(file.name)
                file.companions = try exportCompanions(of: asset, beside: file.name, into: folder, taken: &taken)
                claimed.formUnion(file.companions)
                if wasThere { alreadyThere.append(file) } else { exported.append(file) }
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
        return ExportReport(directory: directory, exported: exported, alreadyThere: alreadyThere, failures: failures)
    }

    /// What an export would do, writing nothing: each asset found already there (identical bytes
    /// under a name it would get) or exported under the first free name (its companions' names free
    /// too). `folder` is `nil` when the export folder does not exist yet.
    private func predicted(_ assets: [AssetInfo], existing: Set<String>, folder: FileSystem.Descriptor?)
        -> ExportReport
    {
        var taken = existing
        var claimed = Set<String>()
        var exported: [ExportReport.File] = []
        var alreadyThere: [ExportReport.File] = []
        var failures: [ExportReport.Failure] = []
        for asset in assets {
            do {
                if let folder,
                    var found = try identicalCopy(of: asset, in: folder, existing: existing, claimed: claimed)
                {
                    claimed.insert(found.name)
                    found.companions = companionNames(of: asset, beside: found.name)
                    alreadyThere.append(found)
                    continue
                }
                let base = baseName(of: asset)
                var attempt = 1
                var name = base
                while true {
                    name = FolderNaming.fileName(base, attempt: attempt)
                    attempt += 1
                    if !taken.contains(name), !companionNames(of: asset, beside: name).contains(where: taken.contains) {
                        break
                    }
                }
                var file = ExportReport.File(
                    assetID: asset.id, name: name, originalFilename: asset.originalFilename,
                    byteSize: asset.byteSize ?? 0,
                    modificationDate: asset.metadata?.captureDate.flatMap(Self.date(fromCaptureDate:)))
                file.companions = companionNames(of: asset, beside: name)
                taken.insert(name)
                taken.formUnion(file.companions)
                claimed.insert(name)
                exported.append(file)
            } catch {
                let error = AlbumError.wrap(error)
                failures.append(ExportReport.Failure(assetID: asset.id, code: error.code, message: error.message))
            }
        }
        return ExportReport(directory: directory, exported: exported, alreadyThere: alreadyThere, failures: failures)
    }

    /// The file already in the folder under a name `asset` would get (`IMG_1.jpg`, `IMG_1 2.jpg`,
    /// … in that order, skipping names this run's assets already are) that is the same bytes, by
    /// size and then SHA-256; `nil` when there is none and the asset is to be written.
    private func identicalCopy(
        of asset: AssetInfo, in folder: FileSystem.Descriptor, existing: Set<String>, claimed: Set<String>
    ) throws -> ExportReport.File? {
        let base = baseName(of: asset)
        var attempt = 1
        while true {
            let name = FolderNaming.fileName(base, attempt: attempt)
            attempt += 1
            if claimed.contains(name) { continue }
            guard existing.contains(name) else {
                // A name an export skips because its companions' names were taken (an earlier
                // export went on to the next one): look further.
                if companionNames(of: asset, beside: name).contains(where: existing.contains) { continue }
                return nil
            }
            guard let info = FileSystem.fileStatus(of: name, in: folder), info.kind == .regular,
                asset.byteSize.map({ Int64(info.size) == $0 }) ?? true
            else { continue }
            guard let expected = try expectedSHA256(of: asset) else { return nil }
            let found: String
            do {
                let file = try FileSystem.openFile(name, in: folder)
                found = try FileSystem.sha256(of: file)
            } catch let error as SystemError {
                throw error.libraryError("read \(name) in the export folder")
            }
            if found == expected {
                return ExportReport.File(
                    assetID: asset.id, name: name, originalFilename: asset.originalFilename,
                    byteSize: Int64(info.size), modificationDate: info.modified.date)
            }
        }
    }

    /// The SHA-256 the asset's original has: the library's record, else the original's file
    /// hashed; `nil` when neither is known (the copy is then written).
    private func expectedSHA256(of asset: AssetInfo) throws -> String? {
        if let known = asset.sha256 { return known }
        guard let source = asset.fileURL else { return nil }
        do {
            let input = try RemovalGate.openForReading(source, beneath: asset.libraryFolder)
            defer { FileSystem.close(input.0) }
            return try FileSystem.sha256(of: input.0)
        } catch let error as SystemError {
            throw AlbumError(
                error.errno == ENOENT ? .fileNotFound : .fileUnreadable,
                "The original of \(baseName(of: asset)) (\(source.path)) cannot be read: \(error). Run `album verify`.",
                file: source.path)
        }
    }

    /// The name an asset is exported under before any numbering.
    private func baseName(of asset: AssetInfo) -> String {
        let fallback = asset.fileURL?.lastPathComponent ?? asset.id
        return FolderNaming.safeComponent(
            givenNames?[asset.id] ?? asset.originalFilename ?? fallback, fallback: fallback)
    }

    /// Creates the folder (and its parents); refuses a file in its place.
    private func prepareDirectory() throws {
        if let status = FileSystem.fileStatus(atPath: directory.path) {
            guard status.kind == .directory else {
                throw AlbumError(.invalidArgument, "\(directory.path) is a file, not a folder to export into.")
            }
            return
        }
        // The user's own folder, made as `mkdir` makes one (the umask decides); what is written in
        // it keeps the library copy's mode.
        do { try FileSystem.makeDirectory(atPath: directory.path, mode: 0o777) } catch {
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

    /// Writes `asset` under the first free name; when that name was taken meanwhile by the same
    /// bytes (another export into this folder at the same time), that file is the asset's and
    /// nothing is written (`wasThere`).
    private func copy(
        _ asset: AssetInfo, into folder: FileSystem.Descriptor, taken: inout Set<String>
    ) throws -> (file: ExportReport.File, wasThere: Bool) {
        let base = baseName(of: asset)
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
                size = try copyFile(
                    source, beneath: asset.libraryFolder, base: base, into: staged.descriptor, expecting: asset.sha256)
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
            // Its companions are named after it: a name is free only when theirs are too.
            guard !taken.contains(name), !companionNames(of: asset, beside: name).contains(where: taken.contains)
            else { continue }
            do {
                try FileSystem.publish(staged, as: name)
            } catch  where error.errno == EEXIST {
                taken.insert(name)
                if isCopy(named: name, in: folder, of: staged.descriptor, size: size) {
                    return (
                        ExportReport.File(
                            assetID: asset.id, name: name, originalFilename: asset.originalFilename,
                            byteSize: Int64(size), modificationDate: modified), true
                    )
                }
                continue
            } catch {
                throw error.libraryError("write \(name) into the export folder")
            }
            published = true
            FileSystem.close(staged.descriptor)
            taken.insert(name)
            return (
                ExportReport.File(
                    assetID: asset.id, name: name, originalFilename: asset.originalFilename,
                    byteSize: Int64(size), modificationDate: modified), false
            )
        }
    }

    /// Whether the file `name` in `folder` holds the bytes of the staged `file` (`size` bytes): by
    /// size, then SHA-256. One that cannot be read is not.
    private func isCopy(
        named name: String, in folder: FileSystem.Descriptor, of file: FileSystem.Descriptor, size: UInt64
    )
        -> Bool
    {
        guard let info = FileSystem.fileStatus(of: name, in: folder), info.kind == .regular, UInt64(info.size) == size,
            // A probe: unreadable means not a copy (the asset is written under another name).
            let there = try? FileSystem.openFile(name, in: folder)
        else { return false }
        // (As above.)
        guard let found = try? FileSystem.sha256(of: there), let ours = try? FileSystem.sha256(of: file) else {
            return false
        }
        return found == ours
    }

    /// The names `asset`'s companions take beside its file `name`.
    private func companionNames(of asset: AssetInfo, beside name: String) -> [String] {
        let names = AssetCompanion.names(
            of: asset.companions.map(\.originalFilename), photo: asset.originalFilename, as: name)
        return zip(asset.companions, names).map { companion, companionName in
            FolderNaming.safeComponent(
                companionName, fallback: name + "." + (companion.originalFilename as NSString).pathExtension)
        }
    }

    /// Writes `asset`'s companions (sidecars, the raw of a pair) beside its file `name`, each
    /// named after it, never replacing a file; returns the names written or already there.
    private func exportCompanions(
        of asset: AssetInfo, beside name: String, into folder: FileSystem.Descriptor, taken: inout Set<String>
    ) throws -> [String] {
        var names: [String] = []
        for (companion, target) in zip(asset.companions, companionNames(of: asset, beside: name)) {
            names.append(target)
            if FileSystem.fileStatus(of: target, in: folder) != nil { continue }
            guard companion.fileURL != nil || companion.sha256 != nil else { continue }
            let staged: FileSystem.StagedFile
            do { staged = try FileSystem.stage(in: folder, as: StagingName(kind: "partial")) } catch {
                throw error.libraryError("write into the export folder")
            }
            var published = false
            defer { if !published { FileSystem.abandon(staged) } }
            do {
                if let source = companion.fileURL {
                    _ = try copyFile(
                        source, beneath: asset.libraryFolder, base: companion.originalFilename, into: staged.descriptor,
                        expecting: companion.sha256)
                    if let time = FileSystem.fileStatus(atPath: source.path, following: false)?.modified {
                        try FileSystem.setModificationTime(staged.descriptor, to: time)
                    }
                } else if try !fetchCompanion(companion, staged.descriptor) {
                    continue  // the library has no copy to give
                }
                try FileSystem.fsync(staged.descriptor)
                try FileSystem.publish(staged, as: target)
            } catch let error as SystemError {
                // Taken meanwhile by another program: theirs, kept.
                if error.errno == EEXIST { continue }
                throw error.libraryError("write \(target) into the export folder")
            }
            published = true
            FileSystem.close(staged.descriptor)
            taken.insert(target)
        }
        return names
    }

    /// Copies the file `source` (opened beneath `libraryFolder` when the library keeps its files
    /// in one: ``RemovalGate``) into `target`, with its permission bits (an export is never
    /// readable by more people than the library's copy), hashing what it reads: bytes whose
    /// SHA-256 is not `expecting` (the library's record) fail, and nothing is exported for them.
    /// Returns its size.
    private func copyFile(
        _ source: URL, beneath libraryFolder: URL?, base: String, into target: FileSystem.Descriptor,
        expecting sha256: String?
    ) throws -> UInt64 {
        let input: FileSystem.Descriptor
        let version: FileSystem.FileVersion
        do throws(SystemError) {
            (input, _) = try RemovalGate.openForReading(source, beneath: libraryFolder)
            do throws(SystemError) { version = try FileSystem.version(of: input) } catch {
                FileSystem.close(input)
                throw error
            }
        } catch {
            throw AlbumError(
                error.errno == ENOENT ? .fileNotFound : .fileUnreadable,
                "The original of \(base) (\(source.path)) cannot be read: \(error). Run `album verify`.",
                file: source.path)
        }
        var hasher = SHA256Hasher()
        let copied = try FileSystem.forEachChunk(of: input) { chunk in
            hasher.update(chunk)
            try FileSystem.write(target, chunk)
        }
        guard copied == version.size else {
            throw AlbumError(.fileUnreadable, "\(source.path) changed size while it was exported; try again.")
        }
        let found = hasher.finalize()
        if let sha256, found != sha256 {
            throw AlbumError(
                .corruptMedia,
                "The library's copy of \(base) (\(source.path)) is damaged: its bytes are not the ones saved (SHA-256); it was not exported. Run `album verify`.",
                file: source.path)
        }
        try FileSystem.setPermissions(target, version.permissions & 0o777)
        return version.size
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
