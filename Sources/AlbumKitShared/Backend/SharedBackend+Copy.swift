#if os(Linux)
    import AlbumKitCore
    import Foundation

    extension SharedBackend: LibraryImporting {
        /// Copies a catalog library's assets, albums and memberships (ids, dates, original names and
        /// positions kept) with the save protocol: intents, uploads, then one transaction per batch.
        /// Already-copied assets (same SHA-256), albums (same id) and memberships are skipped, so
        /// running it again after an interruption finishes the copy.
        package func copy(_ source: LibraryContents) async throws -> CopyReport {
            try await Blocking.run { try self.copyNow(source) }
        }

        private func copyNow(_ source: LibraryContents) throws -> CopyReport {
            try requireWriter("copy into the library")
            var report = CopyReport()
            var assetIDs: [String: String] = [:]  // catalog id → shared id
            var start = 0
            while start < source.assets.count {
                let batch = Array(source.assets[start..<min(start + 32, source.assets.count)])
                start += batch.count
                var opened: [FileSystem.Descriptor] = []
                defer { opened.forEach { FileSystem.close($0) } }
                for asset in batch {
                    do {
                        // Beneath the catalog's folder only: a path or link leading out is refused.
                        let (file, size) = try RemovalGate.openForReading(asset.fileURL, beneath: source.root)
                        opened.append(file)
                        guard Int64(size) == asset.byteSize else {
                            throw AlbumError(
                                .libraryCorrupt,
                                "\(asset.fileURL.path) is \(size) bytes but the catalog says \(asset.byteSize); run `album verify` on the source. Nothing more was copied.",
                                file: asset.fileURL.path)
                        }
                    } catch let error as SystemError {
                        throw error.inputError(file: asset.fileURL.path)
                    }
                }
                // Their companions, opened and uploaded as their own step.
                var companionFiles: [(sha256: String, file: FileSystem.Descriptor, byteSize: Int64)] = []
                for asset in batch {
                    for companion in asset.companions {
                        let path = source.root.appendingPathComponent(companion.path).path
                        do {
                            let (file, size) = try RemovalGate(root: source.root.path).openFileForReading(
                                companion.path)
                            opened.append(file)
                            guard Int64(size) == companion.size else {
                                throw AlbumError(
                                    .libraryCorrupt,
                                    "\(path) is \(size) bytes but the catalog says \(companion.size); run `album verify` on the source. Nothing more was copied.",
                                    file: path)
                            }
                            companionFiles.append((companion.sha256, file, companion.size))
                        } catch let error as SystemError {
                            throw error.inputError(file: path)
                        }
                    }
                }
                let photoIntents = try upload(
                    zip(batch, opened).map { ($0.0.sha256, $0.1, UInt64($0.0.byteSize)) }, "upload the photos"
                ).intents
                let intents: [String]
                do {
                    intents =
                        try photoIntents
                        + upload(
                            companionFiles.map { ($0.sha256, $0.file, UInt64($0.byteSize)) },
                            "upload the files kept with the photos"
                        ).intents
                } catch {
                    forgetIntents(photoIntents)
                    throw error
                }
                do {
                    try commitCopied(batch, intents: intents, into: &report, assetIDs: &assetIDs)
                } catch {
                    // Nothing of the batch was committed: `gc` may reclaim what was uploaded.
                    forgetIntents(intents)
                    throw error
                }
                forgetStrandedIntents()
            }
            try withDatabase("copy the albums") { db in
                try db.transaction {
                    for album in source.albums {
                        try db.execute(
                            "SELECT pg_advisory_xact_lock(\(SharedSchema.titleLock), hashtext($1))", [album.titleKey])
                        let inserted = try db.execute(
                            """
                            INSERT INTO album (id, title, title_key, created_at) VALUES ($1, $2, $3, $4)
                            ON CONFLICT (id) DO NOTHING RETURNING id
                            """, [album.id, album.title, album.titleKey, String(album.createdAt)])
                        if !inserted.isEmpty { report.albums += 1 }
                    }
                    for membership in source.memberships {
                        guard let assetID = assetIDs[membership.assetID] else { continue }
                        let inserted = try db.execute(
                            """
                            INSERT INTO album_asset (album_id, asset_id, position, added_at) VALUES ($1, $2, $3, $4)
                            ON CONFLICT DO NOTHING RETURNING 1
                            """,
                            [membership.albumID, assetID, String(membership.position), String(membership.addedAt)])
                        if !inserted.isEmpty { report.memberships += 1 }
                    }
                }
            }
            return report
        }

        /// One batch of a copy in one transaction: its assets with their ids, dates added and
        /// companions (an asset whose bytes the library holds is counted, not added), and its
        /// upload records forgotten.
        private func commitCopied(
            _ batch: [LibraryContents.Asset], intents: [String], into report: inout CopyReport,
            assetIDs: inout [String: String]
        ) throws {
            try withDatabase("copy the photos", retrying: false) { db in
                try db.transaction {
                    for asset in batch {
                        let inserted = try db.execute(
                            """
                            INSERT INTO asset (id, sha256, kind, format, original_name, byte_size, added_at, metadata,
                                favorite, saved_user, saved_host, saved_role)
                            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, current_user)
                            ON CONFLICT DO NOTHING RETURNING id
                            """,
                            [
                                asset.id, asset.sha256, asset.kind, asset.format, asset.originalName,
                                String(asset.byteSize), String(asset.addedAt), asset.metadata,
                                asset.isFavorite ? "t" : "f", saver.user, saver.host,
                            ])
                        if inserted.isEmpty {
                            report.existingAssets += 1
                            assetIDs[asset.id] = try db.value(
                                "SELECT id FROM asset WHERE sha256 = $1", [asset.sha256])
                        } else {
                            report.copiedAssets += 1
                            assetIDs[asset.id] = asset.id
                            for (position, companion) in asset.companions.enumerated() {
                                try db.execute(
                                    """
                                    INSERT INTO asset_companion (asset_id, name, role, sha256, byte_size, position)
                                    VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING
                                    """,
                                    [
                                        asset.id, companion.name, companion.role, companion.sha256,
                                        String(companion.size), String(position + 1),
                                    ])
                            }
                        }
                    }
                    try Self.forget(intents, in: db)
                }
            }
        }
    }
#endif
