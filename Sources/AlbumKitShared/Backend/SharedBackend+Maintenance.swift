#if os(Linux)
    import AlbumKitCore
    import AlbumKitPreviews
    import Foundation

    extension SharedBackend: LibraryVerifying, GarbageCollecting {
        // MARK: Verification

        /// Checks every asset row against its object: present, the recorded size, the recorded
        /// SHA-256 (each object is read back, through ``readObject(_:record:doing:_:)``); then lists
        /// objects no row or live upload names.
        package func verify() async throws -> VerificationReport {
            try await Blocking.run { try self.verifyNow() }
        }

        private func verifyNow() throws -> VerificationReport {
            // Assets in recently deleted too: restoring one must bring back intact bytes.
            let rows = try withDatabase("read the library") { db in
                try db.execute("SELECT id, sha256, byte_size, original_name FROM asset ORDER BY sha256")
            }
            var problems: [String] = []
            for row in rows {
                let (id, sha, size) = (row[0]!, row[1]!, Int64(row[2] ?? "") ?? -1)
                let name = row[3].map { " (\($0))" } ?? ""
                guard SharedSchema.isDigest(sha) else {
                    // Never followed: not read here, never deleted by gc (the row is purged alone).
                    problems.append(SharedSchema.damagedRow(sha, of: "asset \(id)\(name)").message)
                    continue
                }
                let remedy =
                    "To repair it, save the photo\(name) again (`album save`), or `album copy --from` a library that has it; the save puts intact bytes back."
                let (key, read) = try readObject(sha, record: "asset \(id)\(name)", doing: "verify the library") {
                    try store.get(key: $0, into: nil)
                }
                guard let read else {
                    problems.append("asset \(id)\(name): its original \(key) is missing from the store. \(remedy)")
                    continue
                }
                if Int64(read.size) != size {
                    problems.append(
                        "asset \(id)\(name): its original \(key) is \(read.size) bytes, the library says \(size). \(remedy)"
                    )
                } else if read.sha256 != sha {
                    problems.append(
                        "asset \(id)\(name): its original \(key) is damaged (SHA-256 \(read.sha256), the library says \(sha)). \(remedy)"
                    )
                }
            }
            // The files kept with the assets: each object there, of its size and SHA-256.
            let companions = try withDatabase("read the library") { db in
                try db.execute(
                    "SELECT asset_id, name, sha256, byte_size FROM asset_companion ORDER BY asset_id, position")
            }
            for row in companions {
                let (id, name, sha, size) = (row[0]!, row[1]!, row[2]!, Int64(row[3] ?? "") ?? -1)
                guard SharedSchema.isDigest(sha) else {
                    problems.append(SharedSchema.damagedRow(sha, of: "asset \(id): its \(name)").message)
                    continue
                }
                let remedy = "To repair it, save the photo again with \(name) beside it."
                let (key, read) = try readObject(sha, record: "asset \(id): its \(name)", doing: "verify the library") {
                    try store.get(key: $0, into: nil)
                }
                guard let read else {
                    problems.append("asset \(id): its \(name) (\(key)) is missing from the store. \(remedy)")
                    continue
                }
                if Int64(read.size) != size || read.sha256 != sha {
                    problems.append(
                        "asset \(id): its \(name) (\(key)) is damaged (\(read.size) bytes, SHA-256 \(read.sha256); the library says \(size) bytes, \(sha)). \(remedy)"
                    )
                }
            }
            for stray in try strayObjects() {
                problems.append("stray object \(stray.key): no asset refers to it (run `album gc`)")
            }
            return VerificationReport(checkedAssets: rows.count, problems: problems)
        }

        // MARK: Garbage collection

        /// Objects under `originals/` that no asset or companion row names and no live upload is
        /// about to commit. Only objects the library made count: named `originals/XX/SHA256` as
        /// ``SharedSchema/objectName(sha256:of:)`` names them; anything else there is not AlbumKit's
        /// and is left alone.
        func strayObjects() throws -> [(key: String, size: UInt64, sha256: String)] {
            let store = try store
            let root = store.key("originals/")
            // Objects first, then rows: an object uploaded by a live save has its intent row by then.
            let listed: [(key: String, size: UInt64)]
            do { listed = try store.list(prefix: root) } catch {
                throw Self.map(error, "list the originals", library: displayURL, store: storeIfKnown)
            }
            let known = try withDatabase("read the library") { db in
                Set(
                    try db.execute(
                        """
                        SELECT sha256 FROM asset
                        UNION SELECT sha256 FROM asset_companion
                        UNION SELECT r.sha256 FROM released_object r
                        WHERE r.released_at > extract(epoch FROM now()) - \(SharedSchema.retentionSeconds)
                        UNION SELECT i.sha256 FROM upload_intent i
                        WHERE i.expires_at > now() AND EXISTS (
                            SELECT 1 FROM pg_stat_activity a WHERE a.pid = i.owner_pid AND a.backend_start = i.owner_start)
                        """
                    ).compactMap { $0[0] })
            }
            return listed.compactMap { object in
                let sha = String(object.key.split(separator: "/").last ?? "")
                guard SharedSchema.isDigest(sha), object.key == root + sha.prefix(2) + "/" + sha else { return nil }
                return known.contains(sha) ? nil : (object.key, object.size, sha)
            }
        }

        /// Removes what nothing needs any more: upload records of savers that are gone, assets and
        /// albums that have been in recently deleted longer than the retention, then the objects no
        /// asset (in recently deleted or not) and no live upload names. Each object is deleted under
        /// its advisory lock after checking again that nothing names it, so it never races a save of
        /// the same bytes.
        package func collectGarbage() async throws -> GarbageReport {
            try await Blocking.run { try self.collectGarbageNow() }
        }

        private func collectGarbageNow() throws -> GarbageReport {
            let (forgotten, expired) = try withDatabase("collect garbage") { db in
                try db.transaction { () throws -> (Int, Purged) in
                    let forgotten =
                        Int(
                            try db.value(
                                """
                                WITH gone AS (DELETE FROM upload_intent i WHERE i.expires_at <= now() OR NOT EXISTS (
                                    SELECT 1 FROM pg_stat_activity a WHERE a.pid = i.owner_pid AND a.backend_start = i.owner_start)
                                    RETURNING 1)
                                SELECT count(*) FROM gone
                                """) ?? "0") ?? 0
                    // Companions released by a member (``SharedSchema/guards``) are kept as long.
                    try db.execute(
                        "DELETE FROM released_object WHERE released_at <= extract(epoch FROM now()) - \(SharedSchema.retentionSeconds)"
                    )
                    let expired = try Self.purge(
                        db, where: "deleted_at < extract(epoch FROM now()) - $1::double precision * 86400",
                        [String(try Self.retentionDays(db))])
                    return (forgotten, expired)
                }
            }
            var report = try removeUnreferenced(strayObjects().map { ($0.sha256, $0.size) })
            report.abandonedUploads = forgotten
            report.removedDerivatives = try removeOrphanDerivatives()
            report.removedAssets = expired.assets.count
            report.removedAlbums = expired.albums.count
            return report
        }

        /// Deletes the thumbnails and previews (``KeptDerivative``) of originals no asset names any
        /// more, in recently deleted or not (an asset restored finds its own again). Only objects
        /// whose key is exactly one the library makes, `PREFIX/derivatives/<size>/<ab>/<sha256>.jpg`
        /// for a size it keeps, are candidates: the listing is not believed, and anything else under
        /// the prefix is not AlbumKit's and is left alone. A derivative removed as a save of its bytes
        /// commits is a cache's miss: made again on the next request. Returns how many were removed.
        func removeOrphanDerivatives() throws -> Int {
            let store = try store
            let prefix = store.location.prefix
            let listed: [(key: String, size: UInt64)]
            do { listed = try store.list(prefix: store.key(KeptDerivative.folder + "/")) } catch {
                throw Self.map(error, "list the thumbnails and previews", library: displayURL, store: storeIfKnown)
            }
            var keys: [String: [String]] = [:]
            for object in listed where object.key.hasPrefix(prefix) {
                let relative = String(object.key.dropFirst(prefix.count))
                guard let (sha256, pixels) = KeptDerivative.parse(relative, sizes: keptSizes.map(\.pixels)),
                    let name = KeptDerivative.name(sha256: sha256, pixels: pixels), store.key(name) == object.key
                else { continue }
                keys[sha256, default: []].append(store.key(name))
            }
            guard !keys.isEmpty else { return 0 }
            let named = try withDatabase("collect garbage") { db in
                Set(
                    try db.execute(
                        "SELECT sha256 FROM asset WHERE sha256 = ANY($1::text[])", [Self.array(Array(keys.keys))]
                    ).compactMap { $0[0] })
            }
            var removed = 0
            for (sha256, derivatives) in keys.sorted(by: { $0.key < $1.key }) where !named.contains(sha256) {
                for key in derivatives {
                    do { try store.delete(key: key) } catch {
                        throw Self.map(error, "remove a thumbnail", library: displayURL, store: storeIfKnown)
                    }
                    removed += 1
                }
            }
            return removed
        }

        /// Deletes the objects of `candidates` (SHA-256, size) that no asset row and no upload record
        /// names, each under its object's lock. The only place objects are deleted: a candidate read
        /// from a damaged row (not a SHA-256) is passed over, never turned into a key.
        func removeUnreferenced(_ candidates: [(sha256: String, size: UInt64)]) throws -> GarbageReport {
            var report = GarbageReport(removedObjects: 0, freedBytes: 0, abandonedUploads: 0)
            let store = try store
            for candidate in candidates where SharedSchema.isDigest(candidate.sha256) {
                let key = store.key(try SharedSchema.objectName(sha256: candidate.sha256))
                let removed = try withDatabase("collect garbage") { db in
                    try db.transaction { () throws -> Bool in
                        try db.execute(
                            "SELECT pg_advisory_xact_lock(\(SharedSchema.objectLock), hashtext($1))", [candidate.sha256]
                        )
                        let stillUnused =
                            try db.value(
                                """
                                SELECT NOT EXISTS (SELECT 1 FROM asset WHERE sha256 = $1)
                                   AND NOT EXISTS (SELECT 1 FROM asset_companion WHERE sha256 = $1)
                                   AND NOT EXISTS (SELECT 1 FROM upload_intent WHERE sha256 = $1)
                                   AND NOT \(SharedSchema.recentlyReleased("$1"))
                                """, [candidate.sha256]) == "t"
                        guard stillUnused else { return false }
                        // Deleted while holding the lock: a save of these bytes waits for it, then uploads again.
                        try store.delete(key: key)
                        return true
                    }
                }
                if removed {
                    report.removedObjects += 1
                    report.freedBytes += candidate.size
                }
            }
            return report
        }
    }

    /// What `SharedBackend.collectGarbage()` (`album gc`) removed.
    public struct GarbageReport: Sendable, Hashable {
        /// Objects deleted from the store.
        public var removedObjects: Int
        /// Their total size.
        public var freedBytes: UInt64
        /// Upload records of savers that are gone, forgotten.
        public var abandonedUploads: Int
        /// Assets removed for good from recently deleted (past the retention, or on request).
        public var removedAssets = 0
        /// Albums removed for good from recently deleted.
        public var removedAlbums = 0
        /// Thumbnails and previews removed with the originals they were made from.
        public var removedDerivatives = 0

        /// A report.
        ///
        /// ```swift
        /// let nothing = GarbageReport(removedObjects: 0, freedBytes: 0, abandonedUploads: 0)
        /// ```
        public init(
            removedObjects: Int, freedBytes: UInt64, abandonedUploads: Int, removedAssets: Int = 0,
            removedAlbums: Int = 0
        ) {
            self.removedObjects = removedObjects
            self.freedBytes = freedBytes
            self.abandonedUploads = abandonedUploads
            self.removedAssets = removedAssets
            self.removedAlbums = removedAlbums
        }
    }
#endif
