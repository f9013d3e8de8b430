#if os(Linux)
    import AlbumKitCore
    import Foundation

    /// The files kept with an asset (its sidecars, the raw of a RAW+JPEG pair): staged with the
    /// photo (``StagedMedia``), uploaded as objects keyed by their SHA-256 like originals (their own
    /// step, after the photos' upload and before the commit that names them), recorded in
    /// `asset_companion` by the commit that saves the photo, listed, exported, and kept by `gc` while
    /// their asset is there or in recently deleted.
    extension SharedBackend {
        /// Uploads the companions of `staged` the store does not hold intact yet, each under an
        /// upload record taken under its object's lock (as ``upload(_:)`` does for originals), so
        /// `gc` never removes an object a save is about to name. Returns the records, which the
        /// committing transaction forgets (``forget(_:in:)``).
        func uploadCompanions(_ staged: [Staged]) throws -> [String] {
            try uploadCompanionObjects(
                staged.flatMap(\.companions).map { ($0.sha256, $0.file.descriptor, $0.byteSize) })
        }

        /// Uploads companion objects (SHA-256, open file, size) as ``uploadCompanions(_:)`` does.
        func uploadCompanionObjects(
            _ objects: [(sha256: String, file: FileSystem.Descriptor, byteSize: Int64)]
        ) throws -> [String] {
            var seen = Set<String>()
            let companions = objects.filter { seen.insert($0.sha256).inserted }
            guard !companions.isEmpty else { return [] }
            let intents = companions.map { _ in UUID().uuidString.lowercased() }
            let hashes = Self.arrayLiteral(companions.map(\.sha256))
            let present: Set<String> = try withDatabase("save the photos", retrying: false) { db in
                try db.transaction {
                    try db.execute(
                        """
                        SELECT pg_advisory_xact_lock(\(SharedSchema.objectLock), key)
                        FROM (SELECT DISTINCT hashtext(s) AS key FROM unnest($1::text[]) s ORDER BY key) k
                        """, [hashes])
                    try db.execute(
                        """
                        INSERT INTO upload_intent (id, sha256, owner_pid, owner_start, expires_at)
                        SELECT t.id, t.sha256, a.pid, a.backend_start, now() + interval '1 day'
                        FROM unnest($1::uuid[], $2::text[]) AS t(id, sha256),
                            (SELECT pid, backend_start FROM pg_stat_activity WHERE pid = pg_backend_pid()) a
                        """, [Self.arrayLiteral(intents), hashes])
                    return Set(
                        try db.execute(
                            """
                            SELECT sha256 FROM asset_companion WHERE sha256 = ANY($1::text[])
                            UNION SELECT sha256 FROM asset WHERE sha256 = ANY($1::text[])
                            """, [hashes]
                        ).compactMap { $0[0] })
                }
            }
            do {
                try Blocking.forEach(companions, threads: Self.uploadConnections) { companion in
                    let key = self.store.key(try SharedSchema.objectName(sha256: companion.sha256))
                    var replace = false
                    if present.contains(companion.sha256) {
                        let state = try self.store.condition(
                            of: key, size: UInt64(companion.byteSize), sha256: companion.sha256, file: companion.file)
                        if state == .intact { return }
                        replace = state == .damaged
                    }
                    try self.store.put(
                        key: key, file: companion.file, length: UInt64(companion.byteSize),
                        sha256: companion.sha256, replacing: replace)
                }
            } catch {
                // Undo after a failure; the error thrown is what matters: an intent left expires with its owner.
                _ = try? withDatabase("undo the save") { db in
                    try db.execute("DELETE FROM upload_intent WHERE id = ANY($1::uuid[])", [Self.array(intents)])
                }
                throw Self.map(error, "upload the files kept with the photos", library: displayURL, store: store)
            }
            return intents
        }

        /// Records each item's companions with its asset (`assetIDs`, in the committing
        /// transaction): all of them for a new asset; for one the library held, those whose bytes
        /// it does not hold yet, added or in place of its companion of that name (the earlier
        /// object noted in `replaced`, for the caller to remove once committed). Returns, per item,
        /// the names added to an existing asset.
        static func recordCompanions(
            _ staged: [Staged], assetIDs: [String], isNew: [Bool], in db: PostgresConnection,
            replaced: inout [(sha256: String, size: UInt64)]
        ) throws -> [[String]] {
            var updated: [[String]] = []
            for index in staged.indices {
                let companions = staged[index].companions
                guard !companions.isEmpty else {
                    updated.append([])
                    continue
                }
                let held = try db.execute(
                    "SELECT sha256 FROM asset_companion WHERE asset_id = $1", [assetIDs[index]]
                ).compactMap { $0[0] }
                let fresh = companions.filter { !held.contains($0.sha256) }
                guard !fresh.isEmpty else {
                    updated.append([])
                    continue
                }
                // The objects of the companions these replace: removed once the commit is durable.
                replaced += try db.execute(
                    "SELECT sha256, byte_size FROM asset_companion WHERE asset_id = $1 AND name = ANY($2::text[])",
                    [assetIDs[index], arrayLiteral(fresh.map(\.originalName))]
                ).map { ($0[0]!, UInt64($0[1] ?? "") ?? 0) }
                try db.execute(
                    """
                    INSERT INTO asset_companion (asset_id, name, role, sha256, byte_size, position)
                    SELECT $1, name, role, sha256, size,
                        (SELECT coalesce(max(position), 0) FROM asset_companion WHERE asset_id = $1) + n
                    FROM unnest($2::text[], $3::text[], $4::text[], $5::bigint[]) WITH ORDINALITY AS t(name, role, sha256, size, n)
                    ON CONFLICT (asset_id, name) DO UPDATE SET role = excluded.role, sha256 = excluded.sha256,
                        byte_size = excluded.byte_size
                    """,
                    [
                        assetIDs[index], arrayLiteral(fresh.map(\.originalName)),
                        arrayLiteral(fresh.map(\.role.rawValue)),
                        arrayLiteral(fresh.map(\.sha256)), arrayLiteral(fresh.map { String($0.byteSize) }),
                    ])
                updated.append(isNew[index] ? [] : fresh.map(\.originalName))
            }
            return updated
        }

        /// The column of an asset query (`a` the asset's alias) listing its companions as JSON.
        static func companionsColumn(_ a: String) -> String {
            """
            (SELECT json_agg(json_build_object('role', c.role, 'name', c.name, 'size', c.byte_size,
                'sha256', c.sha256) ORDER BY c.position) FROM asset_companion c WHERE c.asset_id = \(a).id)
            """
        }

        /// The companions a ``companionsColumn(_:)`` value lists.
        static func companions(fromJSON text: String?) -> [AssetCompanion] {
            struct Row: Decodable {
                let role: String
                let name: String
                let size: Int64
                let sha256: String
            }
            // A list that does not decode is listed without companions (as metadata is); verify reads the table.
            guard let text, let rows = try? JSONDecoder().decode([Row].self, from: Data(text.utf8)) else { return [] }
            return rows.map {
                AssetCompanion(
                    role: MediaCompanion.Role(rawValue: $0.role) ?? .sidecar, originalFilename: $0.name,
                    byteSize: $0.size, sha256: $0.sha256)
            }
        }

        /// Writes the object of `companion` into `file`, checking its size and SHA-256 as it arrives.
        package func copyCompanion(_ companion: AssetCompanion, into file: FileSystem.Descriptor) throws -> Bool {
            guard let sha256 = companion.sha256 else { return false }
            let key = store.key(
                try SharedSchema.objectName(sha256: sha256, of: "The record of \(companion.originalFilename)"))
            let received: (size: UInt64, sha256: String)
            do { received = try store.get(key: key, into: file) } catch let error as ObjectStoreError
                where error.status == 404
            {
                throw AlbumError(
                    .libraryCorrupt,
                    "\(companion.originalFilename) (\(key)) is missing from the object store; run `album verify`.",
                    underlying: error)
            } catch let error as SystemError {
                throw error  // writing the export folder failed: the exporter names it
            } catch {
                throw Self.map(error, "download \(companion.originalFilename)", library: displayURL, store: store)
            }
            guard received.sha256 == sha256, companion.byteSize.map({ UInt64($0) == received.size }) ?? true else {
                throw AlbumError(
                    .libraryCorrupt,
                    "\(companion.originalFilename) (\(key)) is damaged in the object store (SHA-256 \(received.sha256), the library says \(sha256)); nothing was written for it. Run `album verify`."
                )
            }
            return true
        }
    }
#endif
