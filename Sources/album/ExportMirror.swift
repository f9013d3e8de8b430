import AlbumKit
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What `album export` remembers in its folder, and `export --delete` removes by it: the names an
/// export wrote, each with its size and SHA-256, kept per album in the hidden `.albumkit-export`.
///
/// A name is recorded only when this run's export wrote it (it was not in the folder before) or
/// when it was recorded before and its bytes are unchanged, so a file of the user's, or one they
/// edited since, is never taken for the export's. `--delete` removes a recorded name of the album
/// that the album no longer holds, and only while it is still a regular file with the recorded
/// size and SHA-256; links, folders, FIFOs and edited files are kept and reported.
///
/// ```swift
/// let before = ExportMirror.names(in: directory)
/// // … export …
/// let outcome = try ExportMirror(directory: directory, albumID: id).update(
///     after: report, namesBefore: before, removing: true, permanently: false, dryRun: false)
/// ```
struct ExportMirror {
    /// The record's file name in the export folder.
    static let recordName = ".albumkit-export"

    /// The record: for each album's identifier, the files its exports wrote there.
    struct Record: Codable {
        struct Entry: Codable {
            let name: String
            let size: Int64
            let sha256: String
        }
        var albums: [String: [Entry]] = [:]
    }

    /// What an update did (or, in a dry run, would do).
    struct Outcome {
        /// Names removed (or that would be), each with the Trash path it went to when it went there.
        var removed: [(name: String, trashPath: String?)] = []
        /// Names kept although the album no longer holds them, each with why.
        var kept: [(name: String, reason: String)] = []
        /// Problems that did not stop the export (an unreadable record), each said once.
        var warnings: [String] = []
        /// Names that were to go but could not be moved or removed, each with the error.
        var failed: [(name: String, reason: String)] = []
    }

    let directory: URL
    let albumID: String

    /// The names in `directory` now (empty when it does not exist).
    static func names(in directory: URL) -> Set<String> {
        // A folder that cannot be opened holds no names the export could claim as its own.
        guard let folder = try? FileSystem.openDirectory(directory.path) else { return [] }
        defer { FileSystem.close(folder) }
        // Nor does one that cannot be listed: nothing is recorded, nothing removed.
        return Set((try? FileSystem.names(in: folder)) ?? [])
    }

    /// Removes (with `removing`) the recorded files the album no longer holds, then records what
    /// the album's export holds now; a dry run only tells.
    func update(
        after report: ExportReport, namesBefore: Set<String>, removing: Bool, permanently: Bool, dryRun: Bool
    ) throws -> Outcome {
        var outcome = Outcome()
        let folder: FileSystem.Descriptor
        do { folder = try FileSystem.openDirectory(directory.path) } catch {
            if dryRun { return outcome }  // a dry run made no folder
            throw AlbumError(.invalidArgument, "Cannot open the export folder \(directory.path): \(error).")
        }
        defer { FileSystem.close(folder) }
        var record = Record()
        do {
            if let bytes = try FileSystem.readSmallFile(Self.recordName, in: folder, limit: 32 << 20) {
                record = try JSONDecoder().decode(Record.self, from: Data(bytes))
            }
        } catch {
            outcome.warnings.append(
                "\(directory.path)/\(Self.recordName) cannot be read (\(error)); nothing is removed by it, and it is written anew."
            )
            record = Record()
        }
        let previous = record.albums[albumID] ?? []
        var held = Set<String>()
        for file in report.exported + report.alreadyThere {
            held.insert(file.name)
            held.formUnion(file.companions)
        }
        // An asset that failed to export still has its earlier copy here: nothing is removed then.
        if removing, !report.failures.isEmpty {
            outcome.warnings.append("nothing was removed from \(directory.path): not every asset was exported.")
        }
        let removing = removing && report.failures.isEmpty
        var kept: [Record.Entry] = []
        for entry in previous where !held.contains(entry.name) {
            guard removing else {
                kept.append(entry)
                continue
            }
            guard RemovalGate.isSingleName(entry.name), entry.name != Self.recordName else {
                outcome.kept.append((entry.name, "not a file name in the export folder"))
                continue
            }
            guard let status = FileSystem.fileStatus(of: entry.name, in: folder) else { continue }  // gone
            guard status.kind == .regular else {
                outcome.kept.append((entry.name, "not a regular file (a link, folder or other special file)"))
                continue
            }
            // A file that cannot be read is not proven the export's: kept.
            guard Int64(status.size) == entry.size, (try? hash(entry.name, in: folder)) == entry.sha256 else {
                outcome.kept.append((entry.name, "changed since it was exported"))
                continue
            }
            if dryRun {
                outcome.removed.append((entry.name, nil))
                continue
            }
            do {
                if permanently {
                    if try RemovalGate.removeFile(named: entry.name, in: folder) {
                        outcome.removed.append((entry.name, nil))
                    }
                } else {
                    let place = try FolderTrash().move(
                        entry.name, in: folder, from: directory.path + "/" + entry.name)
                    outcome.removed.append((entry.name, place))
                }
            } catch {
                kept.append(entry)  // still the export's: a later --delete tries again
                outcome.failed.append((entry.name, "\(error)"))
            }
        }
        if dryRun { return outcome }
        let recorded = Dictionary(previous.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var entries = kept
        for name in held.sorted() {
            guard let status = FileSystem.fileStatus(of: name, in: folder), status.kind == .regular,
                // An unreadable file is left out of the record, so never removed later.
                let sha256 = try? hash(name, in: folder)
            else { continue }
            let size = Int64(status.size)
            if namesBefore.contains(name) {
                // There before this run: the export's only when recorded so and unchanged since.
                guard let earlier = recorded[name], earlier.size == size, earlier.sha256 == sha256 else { continue }
            }
            entries.append(Record.Entry(name: name, size: size, sha256: sha256))
        }
        record.albums[albumID] = entries
        try write(record, in: folder)
        return outcome
    }

    /// The SHA-256 of the regular file `name` (a link or special file is refused).
    private func hash(_ name: String, in folder: FileSystem.Descriptor) throws -> String {
        let file = try FileSystem.openFile(name, in: folder)
        defer { FileSystem.close(file) }
        return try FileSystem.sha256(of: file)
    }

    /// Replaces the record at once: written and flushed under a hidden name, then renamed over it.
    private func write(_ record: Record, in folder: FileSystem.Descriptor) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let bytes = Array(try encoder.encode(record))
        // This process's own name: two exports into one folder at once never write the same file
        // (the last one's record stands; a name missing from it is only never removed).
        let temporary = Self.recordName + ".\(getpid()).new"
        do {
            _ = try RemovalGate.removeFile(named: temporary, in: folder)  // an earlier run of this id stopped
            try FileSystem.createFile(temporary, in: folder, bytes: bytes)
            try FileSystem.renameReplacing(temporary, in: folder, to: Self.recordName, in: folder)
            try FileSystem.fsync(folder)
        } catch {
            throw AlbumError(
                .libraryUnwritable,
                "Cannot write \(directory.path)/\(Self.recordName), the record of what was exported: \(error).")
        }
    }
}
