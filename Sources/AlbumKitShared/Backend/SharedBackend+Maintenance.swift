#if os(Linux)
    import AlbumKitCore
    import Foundation

    extension SharedBackend {
        // MARK: Verification

        /// Checks every asset row against its object: present, the recorded size, the recorded
        /// SHA-256 (each object is read back); then lists objects no row or live upload names.
        package func verify() async throws -> VerificationReport {
            try await Blocking.run { try self.verifyNow() }
        }

        private func verifyNow() throws -> VerificationReport {
            let rows = try withDatabase("read the library") { db in
                try db.execute("SELECT id, sha256, byte_size FROM asset ORDER BY sha256")
            }
            var problems: [String] = []
            for row in rows {
                let (id, sha, size) = (row[0]!, row[1]!, Int64(row[2] ?? "") ?? -1)
                let key = store.key(SharedSchema.objectName(sha256: sha))
                do {
                    guard let stored = try store.size(of: key) else {
                        problems.append("asset \(id): missing object \(key)")
                        continue
                    }
                    guard Int64(stored) == size else {
                        problems.append("asset \(id): \(key) is \(stored) bytes, the library says \(size)")
                        continue
                    }
                    let actual = try readBackSHA256(key)
                    if actual != sha {
                        problems.append("asset \(id): \(key) has SHA-256 \(actual), the library says \(sha)")
                    }
                } catch {
                    throw Self.map(error, "verify the library", library: displayURL, store: store)
                }
            }
            for stray in try strayObjects() {
                problems.append("stray object \(stray.key): no asset refers to it (run `album gc`)")
            }
            return VerificationReport(checkedAssets: rows.count, problems: problems)
        }

        /// Downloads the object into an invisible local file and hashes it.
        private func readBackSHA256(_ key: String) throws -> String {
            _ = try FileSystem.makeDirectory(atPath: stagingPath, mode: 0o700)
            let directory = try FileSystem.openDirectory(stagingPath)
            defer { FileSystem.close(directory) }
            let file = try FileSystem.stage(in: directory, as: StagingName(kind: "partial"))
            defer { FileSystem.abandon(file) }
            try store.get(key: key, into: file.descriptor)
            return try FileSystem.sha256(of: file.descriptor)
        }

        // MARK: Garbage collection

        /// Objects under `originals/` that no asset row names and no live upload is about to commit.
        func strayObjects() throws -> [(key: String, size: UInt64, sha256: String)] {
            let root = store.key("originals/")
            // Objects first, then rows: an object uploaded by a live save has its intent row by then.
            let listed: [(key: String, size: UInt64)]
            do { listed = try store.list(prefix: root) } catch {
                throw Self.map(error, "list the originals", library: displayURL, store: store)
            }
            let known = try withDatabase("read the library") { db in
                Set(
                    try db.execute(
                        """
                        SELECT sha256 FROM asset
                        UNION SELECT i.sha256 FROM upload_intent i
                        WHERE i.expires_at > now() AND EXISTS (
                            SELECT 1 FROM pg_stat_activity a WHERE a.pid = i.owner_pid AND a.backend_start = i.owner_start)
                        """
                    ).compactMap { $0[0] })
            }
            return listed.compactMap { object in
                let sha = String(object.key.split(separator: "/").last ?? "")
                return known.contains(sha) ? nil : (object.key, object.size, sha)
            }
        }

        /// Deletes objects that were uploaded but never committed (their saver died or its upload
        /// record expired). Each deletion happens under the object's advisory lock after checking
        /// again that no row and no live upload names it, so it never races a save of the same bytes.
        package func collectGarbage() async throws -> GarbageReport {
            try await Blocking.run { try self.collectGarbageNow() }
        }

        private func collectGarbageNow() throws -> GarbageReport {
            let forgotten = try withDatabase("collect garbage") { db in
                Int(
                    try db.value(
                        """
                        WITH gone AS (DELETE FROM upload_intent i WHERE i.expires_at <= now() OR NOT EXISTS (
                            SELECT 1 FROM pg_stat_activity a WHERE a.pid = i.owner_pid AND a.backend_start = i.owner_start)
                            RETURNING 1)
                        SELECT count(*) FROM gone
                        """) ?? "0") ?? 0
            }
            var report = GarbageReport(removedObjects: 0, freedBytes: 0, abandonedUploads: forgotten)
            for stray in try strayObjects() {
                let removed = try withDatabase("collect garbage") { db in
                    try db.transaction { () throws -> Bool in
                        try db.execute(
                            "SELECT pg_advisory_xact_lock(\(SharedSchema.objectLock), hashtext($1))", [stray.sha256])
                        let stillUnused =
                            try db.value(
                                """
                                SELECT NOT EXISTS (SELECT 1 FROM asset WHERE sha256 = $1)
                                   AND NOT EXISTS (SELECT 1 FROM upload_intent WHERE sha256 = $1)
                                """, [stray.sha256]) == "t"
                        guard stillUnused else { return false }
                        // Deleted while holding the lock: a save of these bytes waits for it, then uploads again.
                        try store.delete(key: stray.key)
                        return true
                    }
                }
                if removed {
                    report.removedObjects += 1
                    report.freedBytes += stray.size
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
    }
#endif
