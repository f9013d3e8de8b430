#if os(Linux)
    import AlbumKitCore
    import Foundation

    /// The files kept with an asset (its sidecars, the raw of a RAW+JPEG pair): staged with the
    /// photo (``StagedMedia``), uploaded as objects keyed by their SHA-256 like originals, through
    /// the same ``SharedBackend/upload(_:_:)`` (their own step, after the photos' upload and before
    /// the commit that names them), recorded in
    /// `asset_companion` by the commit that saves the photo, listed, exported, and kept by `gc` while
    /// their asset is there or in recently deleted.
    extension SharedBackend {
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
    }
#endif
