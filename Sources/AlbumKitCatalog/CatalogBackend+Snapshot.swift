import AlbumKitCore
import Foundation

/// Snapshots: a flushed copy of the index with the journal position it holds, taken every
/// ``CatalogBackend/snapshotInterval`` records, so that a rebuild (after a restart, or of a
/// damaged index) replays only the journal's tail.
extension CatalogBackend {
    /// Takes the snapshot that enough records applied since the last one made due (the change
    /// that made it due read that in its own transaction: ``CatalogIndex/isSnapshotDue(every:)``).
    /// A failure is recorded in the index (`verify` reports it) and retried after as many records
    /// again; it never fails the change that made it due.
    func takeDueSnapshot() {
        let failure: String?
        do {
            try takeSnapshot()
            failure = nil
        } catch {
            failure = AlbumError.wrap(error).message
        }
        // Bookkeeping of the index alone (no record): lost with a rebuild, which is fine.
        try? withIndex("note the snapshot") { connection in
            let index = connection.index!
            try index.db.immediateTransaction {
                try index.setState(CatalogSchema.StateKey.sinceSnapshot, .integer(0))
                if let failure {
                    try index.setState(CatalogSchema.StateKey.snapshotError, .text(failure))
                } else {
                    try index.db.run(
                        "DELETE FROM index_state WHERE key = ?", [.text(CatalogSchema.StateKey.snapshotError)])
                }
            }
        }
    }

    /// Writes the snapshot: the index copied to a hidden file, flushed, renamed over the last one,
    /// the folder flushed.
    ///
    /// - Throws: what failed (a full disk, a folder where the snapshot goes).
    package func takeSnapshot() throws {
        let folder = root.path + "/snapshots"
        do {
            // Never written through nor over: a file, link or FIFO where the folder goes, or anything
            // but a file where the snapshot goes, is set aside under `damaged/`.
            let damaged = DamagedFolder(root: root.path)
            if let status = FileSystem.fileStatus(atPath: folder, following: false), status.kind != .directory {
                try damaged.keep(folder, as: "snapshots")
            }
            _ = try FileSystem.makeDirectory(atPath: folder)
            if let status = FileSystem.fileStatus(atPath: snapshotPath, following: false), status.kind != .regular {
                try damaged.keep(snapshotPath, as: "snapshot-index.sqlite")
            }
        } catch {
            throw AlbumError.library(error, "take a snapshot of the catalog into \(snapshotPath)", path: snapshotPath)
        }
        let temporary = folder + "/" + StagingName(kind: "snapshot").fileName
        do {
            // A copy of the file itself under a read transaction (no writer commits meanwhile, and
            // the rollback journal is empty): its pages keep their checksums, which `VACUUM INTO`
            // does not write.
            try withIndex("take a snapshot") { connection in
                let db = connection.index!.db
                try db.execute("BEGIN")
                defer { try? db.execute("COMMIT") }  // a read transaction: nothing to lose
                _ = try db.row("SELECT count(*) FROM index_state")
                let (source, size) = try FileSystem.openForReading(catalogPath)
                defer { FileSystem.close(source) }
                let target = try FileSystem.openForAppending(temporary)
                defer { FileSystem.close(target) }
                var offset: UInt64 = 0
                while offset < size {
                    let end = min(size, offset + (8 << 20))
                    try FileSystem.write(target, try FileSystem.readAll(source, from: offset, size: end))
                    offset = end
                }
            }
            let (file, _) = try FileSystem.openForReading(temporary)
            defer { FileSystem.close(file) }
            try FileSystem.fsync(file)
            try FileSystem.rename(temporary, to: snapshotPath)
            let directory = try FileSystem.openDirectory(folder)
            defer { FileSystem.close(directory) }
            try FileSystem.fsync(directory)
        } catch {
            try? FileSystem.unlink(temporary)  // ours, never in use
            throw AlbumError.library(error, "take a snapshot of the catalog into \(snapshotPath)", path: snapshotPath)
        }
    }
}
