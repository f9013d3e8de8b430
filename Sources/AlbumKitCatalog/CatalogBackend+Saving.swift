import AlbumKitCore
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The saver's way into a catalog library: each call is a step of ``CatalogSave``, where the
/// save's order is written out; and the checks of a library's file a save relies on.
extension CatalogBackend {
    package func albumUnavailableReason(needsAlbum: Bool) async throws -> String? {
        guard !isReadOnly else {
            throw AlbumError(
                .libraryUnwritable, "The library \(root.path) is on read-only media or not writable; nothing was saved."
            )
        }
        return nil
    }

    package func stage(_ media: Media) async throws -> Staged {
        let folders = ShardFolders(gate: gate)
        return try await Blocking.run { try CatalogSave.stage(media, into: folders, alone: true, in: self) }
    }

    /// Stages a chunk on one thread per core, every item into the same shard folder, opened once.
    package func stage(
        _ media: [Media], prepared: @escaping @Sendable () -> Void
    ) async -> [Result<Staged, AlbumError>] {
        let folders = ShardFolders(gate: gate)
        let alone = media.count == 1
        return await stageOnEveryCore(media, prepared: prepared) {
            try CatalogSave.stage($0, into: folders, alone: alone, in: self)
        }
    }

    package func discard(_ staged: Staged) async {
        // Nothing is closed while a flush still uses it.
        staged.publishing?.finish()
        if let listing = staged.listing {
            listing.finish()
            // Named while staged, never recorded: ours to remove. A name that cannot be removed
            // stays listed, so the next opening after this process removes it.
            let removed = !staged.isPublishedWhileStaged || (try? staged.unpublish()) != nil
            if removed { ProcessOwner.clearPublishing(staged.relativePaths, in: ownersPath) }
        }
        for file in staged.files { FileSystem.abandon(file) }
    }

    /// Returns once the save is durable (``CatalogSave``, step 5); the index's commit ends on the
    /// same thread after, and, after a lone save, the listing of the next one's name
    /// (``NamesListedAhead``).
    package func commit(_ staged: [Staged], to album: AlbumRequest?) async throws -> CommitReceipt {
        try await Blocking.run { acknowledge in
            let receipt = try CatalogSave(self, saving: staged, to: album).commit(acknowledge: acknowledge)
            // After its own name left the list, so that the list is emptied between lone saves.
            if staged.count == 1, let item = staged.first, item.isPublishedWhileStaged {
                self.namesListedAhead.listNext(
                    afterSaving: item.shard, fileExtension: item.media.metadata.format.fileExtension,
                    owners: self.ownersPath)
            }
            return receipt
        }
    }

    /// Whether the library's file `relative` (an asset's path) is there: a regular file of `size`
    /// bytes with the SHA-256 `sha256`. Hashed only when the size matches, and only for bytes the
    /// library already holds (a re-save): "already there" must mean an intact copy is.
    func hasIntactFile(_ relative: String, size: Int64, sha256: String) -> Bool {
        // Reached beneath the library's folder only: a file a link leads to is not the library's.
        guard let status = gate.status(of: relative), status.kind == .regular,
            // A probe: a file that cannot be read is not intact (`false`), and an intact copy is written.
            status.size == size, let (file, _) = try? gate.openFileForReading(relative)
        else { return false }
        defer { FileSystem.close(file) }
        // Unreadable (as above): not intact.
        return (try? FileSystem.sha256(of: file)) == sha256
    }

    /// Whether a copy can be put at the library's file `relative` through the gate: its folder opens
    /// beneath the library's folder without a link, or is missing (and is made).
    func canRestoreFile(at relative: String) -> Bool {
        do {
            let folder = try gate.openFolder((relative as NSString).deletingLastPathComponent)
            FileSystem.close(folder)
            return true
        } catch {
            return error.errno == ENOENT
        }
    }

    /// Replaces the library's file `damagedFile` (missing or damaged) by the library's file `copy`
    /// (the same bytes, intact): the damaged one is shelved, the copy renamed into its place, both
    /// folders flushed — durable before the commit that acknowledges it. Both go through the
    /// library's gate (``RemovalGate``): neither path leads out of the library or through a link.
    func restore(_ damagedFile: String, from copy: String) throws {
        shelve(damagedFile: damagedFile)
        let into = (damagedFile as NSString).deletingLastPathComponent
        let from = (copy as NSString).deletingLastPathComponent
        do throws(SystemError) {
            try gate.moveFile(copy, to: damagedFile)
            for folder in Set([into, from]) {
                let opened = try gate.openFolder(folder)
                defer { FileSystem.close(opened) }
                try FileSystem.fsync(opened)
            }
        } catch {
            throw error.libraryError("restore the damaged file \(damagedFile)")
        }
    }

    /// Moves the library's file `relative`, when it is there, to `damaged/originals/` (kept, and no
    /// longer where the asset's file goes). When it cannot be moved (`damaged` is not a folder, say)
    /// it is removed: its bytes are known to be wrong, and an intact copy replaces it. Only a
    /// regular file beneath the library's folder is moved or removed (``RemovalGate``).
    func shelve(damagedFile relative: String) {
        guard gate.status(of: relative) != nil else { return }
        let name = (relative as NSString).lastPathComponent
        do throws(SystemError) {
            // A link or FIFO in its place is moved to `damaged/` too (the entry, not what it leads to).
            try gate.moveFile(relative, to: "damaged/originals/\(RandomID.make())-\(name)", evenIfNotARegularFile: true)
        } catch {
            // Neither shelved nor removed (a folder in its place stays): the rename in
            // ``restore(_:from:)`` fails on it and reports why.
            _ = try? gate.removeFile(relative)
        }
    }
}
