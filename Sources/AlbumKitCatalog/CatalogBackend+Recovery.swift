import AlbumKitCore
import Foundation

/// Cleaning up after processes that died mid-save, and finding files no record names.
extension CatalogBackend {
    /// Removes what dead savers left, and only what they prove was theirs and never recorded:
    /// files they listed as being published (``ProcessOwner/notePublishing(_:in:)``) that no record
    /// names, and their hidden `.partial` staging files. Any other file is never removed here
    /// (`verify` reports it, ``CatalogRepair`` adopts it). Nothing is removed while the journal
    /// holds a damaged record: the file could be that record's.
    ///
    /// A list is believed only for the names this library's saves give their files
    /// (``LibraryFilePath/isSavedName(_:)``), and every removal goes through the library's gate
    /// (``RemovalGate``): a planted list, or a list naming a shard folder that is a link out of
    /// the library, removes nothing outside it.
    func recover() throws {
        // Files of permanently deleted photos whose removal failed or was cut short (or that a
        // rebuild replayed): their records are durable, so they go.
        let purged = try withIndex("recover the library") { connection in
            try connection.index!.db.rows("SELECT path FROM purged_file").compactMap { $0.text(0) }
        }
        removeFiles(purged)
        let owners = ownersPath
        let dead = ProcessOwner.owners(in: owners).filter { !ProcessOwner.isAlive($0, in: owners) }
        guard !dead.isEmpty else { return }
        var uncleaned = Set<String>()
        let listed = dead.map { owner in
            (owner, ProcessOwner.publishedPaths(of: owner, in: owners).filter(LibraryFilePath.isSavedName))
        }.filter { !$0.1.isEmpty }
        if !listed.isEmpty {
            try record("recover the library") { recorder in
                let damaged = try recorder.db.row("SELECT 1 FROM journal_damage LIMIT 1") != nil
                for (owner, paths) in listed {
                    if damaged {
                        uncleaned.insert(owner)
                        continue
                    }
                    for path in paths
                    where try recorder.db.row(CatalogSchema.isRecordedFileSQL, [.text(path)]) == nil {
                        if !removeLeftover(path) { uncleaned.insert(owner) }
                    }
                }
            }
        }
        // Hidden staging files, looked for only when an owner may have left some: listing every
        // shard folder cost every opening ~1.3 ms per 1 000 photos.
        let mayHaveLeftovers = Set(dead.filter { ProcessOwner.mayHaveStagedHiddenFiles($0, in: owners) })
        if !mayHaveLeftovers.isEmpty { uncleaned.formUnion(removeStagedLeftovers(of: mayHaveLeftovers)) }
        for owner in dead where !uncleaned.contains(owner) { ProcessOwner.forget(owner, in: owners) }
    }

    /// Removes the hidden staging files of dead owners (only those of `deadOwners` when given);
    /// returns the owners some of whose files could not be removed.
    @discardableResult
    func removeStagedLeftovers(of deadOwners: Set<String>? = nil) -> Set<String> {
        var uncleaned = Set<String>()
        for leftover in stagedLeftovers(of: deadOwners) where !removeLeftover("originals/" + leftover.path) {
            uncleaned.insert(leftover.owner)
        }
        return uncleaned
    }

    /// Removes a dead saver's file `relative` through the library's gate; `false` when it is to be
    /// tried again later. What the gate refuses (a link on the way or in its place, a folder, a
    /// FIFO, a path leading out) is not the saver's file: it stays, and is not tried again.
    func removeLeftover(_ relative: String) -> Bool {
        do { try gate.removeFile(relative) } catch {
            return [ELOOP, ENOTDIR, EISDIR, EINVAL, EXDEV].contains(error.errno)
        }
        return true
    }

    /// Hidden staging files (`xx/.<owner>.<id>.partial`, below `originals/`) whose owner is proved
    /// dead; when `deadOwners` is given, only theirs.
    func stagedLeftovers(of deadOwners: Set<String>? = nil) -> [(path: String, owner: String)] {
        var found: [(path: String, owner: String)] = []
        var alive: [String: Bool] = [:]
        for (shard, name) in originalNames(hidden: true) {
            guard let staged = StagingName(parsing: name) else { continue }
            let isDead: Bool
            if let deadOwners {
                isDead = deadOwners.contains(staged.owner)
            } else {
                if alive[staged.owner] == nil {
                    alive[staged.owner] = ProcessOwner.isAlive(staged.owner, in: ownersPath)
                }
                isDead = alive[staged.owner] == false
            }
            if isDead { found.append((shard + "/" + name, staged.owner)) }
        }
        return found
    }

    /// Files under `originals/` that no record names: not hidden, not being published by a live
    /// process.
    func strayFiles() throws -> [String] {
        // Listed first, then the live owners' lists and the index read: a saver lists a file
        // before it names it, and records it before it takes it off its list.
        let listed = originalNames(hidden: false).map { "originals/\($0.shard)/\($0.name)" }
        guard !listed.isEmpty else { return [] }
        let owners = ownersPath
        let inFlight = Set(
            ProcessOwner.owners(in: owners).filter { ProcessOwner.isAlive($0, in: owners) }
                .flatMap { ProcessOwner.publishedPaths(of: $0, in: owners) })
        let known = Set(
            try withIndex("read the catalog") { connection in
                try connection.index!.db.rows(CatalogSchema.libraryFilesSQL)
                    .compactMap { $0.text(0) }
            })
        return listed.filter { !known.contains($0) && !inFlight.contains($0) }
    }

    /// The names in every shard folder of `originals/`, hidden ones or the others, sorted.
    func originalNames(hidden: Bool) -> [(shard: String, name: String)] {
        // A folder that cannot be listed holds nothing recovery can act on; `verify` reports it
        // (``unlistedOriginalFolders()``).
        originalListing(hidden: hidden).names
    }

    /// The folders of `originals/` that cannot be listed, each with why: what is in them (stray
    /// files, leftovers) is not checked. A missing `originals/` (nothing saved yet) is not one.
    func unlistedOriginalFolders() -> [String] {
        originalListing(hidden: false).unlisted
    }

    private func originalListing(hidden: Bool) -> (names: [(shard: String, name: String)], unlisted: [String]) {
        var found: [(shard: String, name: String)] = []
        var unlisted: [String] = []
        func names(_ path: String) -> [String] {
            do { return try FileSystem.names(inDirectoryAt: path).sorted() } catch {
                if error.errno != ENOENT { unlisted.append("\(error)") }
                return []
            }
        }
        for shard in names(originalsPath) where !shard.hasPrefix(".") {
            for name in names(originalsPath + "/" + shard) where name.hasPrefix(".") == hidden {
                found.append((shard, name))
            }
        }
        return (found, unlisted)
    }
}
