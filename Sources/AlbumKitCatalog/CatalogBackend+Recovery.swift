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
    ///
    /// `purged` are the files of permanently deleted photos whose removal failed or was cut short
    /// (or that a rebuild replayed), as the opening read them (``purgedFiles(_:)``): their records
    /// are durable, so they go.
    func recover(purged: [String]) throws {
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

    /// The files of purged assets still listed in the index (read with the opening's other reads).
    static func purgedFiles(_ connection: Connection) throws -> [String] {
        try connection.index!.db.rows("SELECT path FROM purged_file").compactMap { $0.text(0) }
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
    /// dead; when `deadOwners` is given, only theirs. Only names a save stages under are its
    /// (``StagingName`` of kind `partial`): any other hidden file is left alone.
    func stagedLeftovers(of deadOwners: Set<String>? = nil) -> [(path: String, owner: String)] {
        stagedLeftovers(among: originalNames(hidden: true), of: deadOwners)
    }

    /// As ``stagedLeftovers(of:)``, among the hidden names `hidden` (listed already).
    private func stagedLeftovers(
        among hidden: [(shard: String, name: String)], of deadOwners: Set<String>?
    ) -> [(path: String, owner: String)] {
        var found: [(path: String, owner: String)] = []
        var alive: [String: Bool] = [:]
        for (shard, name) in hidden {
            guard let staged = StagingName(parsing: name), staged.kind == "partial" else { continue }
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
    ///
    /// Memory is bounded by the largest shard folder, not the library: each folder is listed and
    /// held against the paths the index names in it (seeks in the indexes of the assets', the
    /// companions' and the purged files' paths); only the names no record names are kept, the
    /// candidates. Then, after every folder is listed, the live owners' lists are read and each
    /// candidate is looked up again: a saver lists a file before it names it, and records it
    /// before it takes it off its list, so a file listed, off every list and named by no record
    /// read after that is a stray.
    func strayFiles() throws -> [String] {
        var candidates: [String] = []
        try forEachOriginalFolder { shard, names in candidates += try unnamedFiles(names, inShard: shard) }
        return try strays(among: candidates)
    }

    /// What `originals/` holds that the library does not account for, from one listing of each
    /// folder: the stray files (``strayFiles()``), the leftovers of dead savers
    /// (``stagedLeftovers(of:)``), and the folders that cannot be listed, each with why (what is
    /// in them is not checked; a missing `originals/`, nothing saved yet, is not one).
    func unaccountedFiles() throws -> (
        strays: [String], leftovers: [(path: String, owner: String)], unlisted: [String]
    ) {
        var candidates: [String] = []
        var hidden: [(shard: String, name: String)] = []
        let unlisted = try forEachOriginalFolder { shard, names in
            for name in names where name.hasPrefix(".") { hidden.append((shard, name)) }
            candidates += try unnamedFiles(names, inShard: shard)
        }
        return (try strays(among: candidates), stagedLeftovers(among: hidden, of: nil), unlisted)
    }

    /// The files among `names` (the listing of the folder `shard` of `originals/`), not hidden,
    /// that no record names in the index: a seek for the folder's paths.
    private func unnamedFiles(_ names: [String], inShard shard: String) throws -> [String] {
        let prefix = "originals/\(shard)/"
        let listed = names.filter { !$0.hasPrefix(".") }
        guard !listed.isEmpty else { return [] }
        let known = Set(
            try withIndex("read the catalog") { connection in
                try connection.index!.db.rows(
                    Self.shardFilesSQL, [.text(prefix), .text(Self.end(ofPrefix: prefix))]
                ).compactMap { $0.text(0) }
            })
        return listed.map { prefix + $0 }.filter { !known.contains($0) }
    }

    /// The strays among `candidates` (files no record named when their folder was listed): those
    /// still named by no record after the live savers' lists are read, and on none of them.
    private func strays(among candidates: [String]) throws -> [String] {
        guard !candidates.isEmpty else { return [] }
        let owners = ownersPath
        let inFlight = Set(
            ProcessOwner.owners(in: owners).filter { ProcessOwner.isAlive($0, in: owners) }
                .flatMap { ProcessOwner.publishedPaths(of: $0, in: owners) })
        let recorded = try withIndex("read the catalog") { connection in
            let db = connection.index!.db
            return Set(
                try candidates.filter {
                    try db.row(CatalogSchema.isRecordedFileSQL, [.text($0)]) != nil
                        || db.row("SELECT 1 FROM purged_file WHERE path = ?", [.text($0)]) != nil
                })
        }
        return candidates.filter { !recorded.contains($0) && !inFlight.contains($0) }
    }

    /// The paths the index names under the prefix `?1` (up to `?2`, excluded): assets' own files,
    /// companions' files, purged files not removed yet; each a seek.
    static let shardFilesSQL = """
        SELECT path FROM asset WHERE path >= ?1 AND path < ?2
        UNION ALL SELECT path FROM companion_file WHERE path >= ?1 AND path < ?2
        UNION ALL SELECT path FROM purged_file WHERE path >= ?1 AND path < ?2
        """

    /// The first string after every string that starts with `prefix` (which ends in `/`): `/`
    /// followed by `0` in byte order, as SQLite compares text.
    static func end(ofPrefix prefix: String) -> String {
        String(prefix.dropLast()) + "0"
    }

    /// The names in every shard folder of `originals/`, hidden ones or the others, sorted.
    func originalNames(hidden: Bool) -> [(shard: String, name: String)] {
        var found: [(shard: String, name: String)] = []
        // A folder that cannot be listed holds nothing recovery can act on; `verify` reports it
        // (``unaccountedFiles()``).
        forEachOriginalFolder { shard, names in
            for name in names where name.hasPrefix(".") == hidden { found.append((shard, name)) }
        }
        return found
    }

    /// Calls `body` with each shard folder of `originals/` and its names, sorted, one folder at a
    /// time (the whole library's names are never held at once).
    ///
    /// - Returns: the folders that could not be listed, each with why.
    @discardableResult
    private func forEachOriginalFolder(_ body: (_ shard: String, _ names: [String]) throws -> Void) rethrows
        -> [String]
    {
        var unlisted: [String] = []
        func names(_ path: String) -> [String] {
            do { return try FileSystem.names(inDirectoryAt: path).sorted() } catch {
                if error.errno != ENOENT { unlisted.append("\(error)") }
                return []
            }
        }
        for shard in names(originalsPath) where !shard.hasPrefix(".") {
            try body(shard, names(originalsPath + "/" + shard))
        }
        return unlisted
    }
}
