#if os(Linux)
    import AlbumKitCore
    import Foundation

    extension SharedBackend: SharedSettingsEditing, OriginalReading, OriginalDownloading {
        /// The recorded store and retention.
        package func settings() async throws -> SharedLibrarySettings {
            try await Blocking.run {
                try self.withDatabase("read the settings") { db in
                    let values = Dictionary(
                        try db.execute("SELECT name, value FROM albumkit_setting").map { ($0[0]!, $0[1]!) },
                        uniquingKeysWith: { first, _ in first })
                    return SharedLibrarySettings(
                        store: try Self.recordedLocation(values, self.displayURL),
                        retentionDays: Int(values["retention_days"] ?? "") ?? SharedSchema.defaultRetentionDays)
                }
            }
        }

        /// Changes the endpoint, region or addressing (the bucket and prefix stay: the originals are
        /// there) and the retention. A new store location is tried first: its bucket must answer, and
        /// hold the original of an asset of the library, or nothing is changed.
        package func changeSettings(
            endpoint: String?, region: String?, addressing: ObjectStoreAddressing?, retentionDays: Int?
        ) async throws -> SharedLibrarySettings {
            let current = try await settings()
            var wanted = current
            if let endpoint {
                // Refused with credentials in it before anything is tried or recorded.
                wanted.store = try ObjectStoreLocation(
                    endpoint: endpoint, bucket: current.store.bucket, prefix: current.store.prefix,
                    region: current.store.region, addressing: current.store.addressing
                ).validated()
            }
            if let region { wanted.store.region = region }
            if let addressing { wanted.store.addressing = addressing }
            if let retentionDays {
                guard (1...3650).contains(retentionDays) else {
                    throw AlbumError(
                        .invalidArgument,
                        "The retention is \(retentionDays) days; give 1 to 3650 (deleted photos stay restorable that long)."
                    )
                }
                wanted.retentionDays = retentionDays
            }
            if wanted.store != current.store { try await checkReachable(wanted.store) }
            let changed = wanted
            try await Blocking.run {
                try self.withDatabase("change the settings") { db in
                    try db.transaction {
                        try db.execute("SELECT pg_advisory_xact_lock(\(SharedSchema.titleLock), 0)")
                        let values = [
                            "endpoint": changed.store.endpoint, "region": changed.store.region,
                            "addressing": changed.store.addressing.rawValue,
                            "retention_days": String(changed.retentionDays),
                        ]
                        for (name, value) in values {
                            try db.execute(
                                """
                                INSERT INTO albumkit_setting (name, value) VALUES ($1, $2)
                                ON CONFLICT (name) DO UPDATE SET value = excluded.value
                                """, [name, value])
                        }
                    }
                }
            }
            return changed
        }

        /// Fails unless `location` answers with the credentials of this machine and holds the
        /// original of one of the library's assets.
        private func checkReachable(_ location: ObjectStoreLocation) async throws {
            try await Blocking.run {
                let store = try Self.makeStore(location, self.environment)
                let sample = try self.withDatabase("read the library") { db in
                    try db.value(
                        "SELECT sha256 FROM asset WHERE sha256 ~ '^[0-9a-f]{64}$' ORDER BY added_at LIMIT 1")
                }
                do {
                    try store.requireBucket()
                    if let sample, try store.size(of: store.key(SharedSchema.objectName(sha256: sample))) == nil {
                        throw AlbumError(
                            .libraryNotFound,
                            "\(location.summary) does not hold this library's originals (\(store.url(of: store.key(try SharedSchema.objectName(sha256: sample)))) is not there); nothing was changed."
                        )
                    }
                } catch {
                    let mapped = Self.map(error, "reach the new store settings", library: self.displayURL, store: store)
                    throw AlbumError(mapped.code, mapped.message + " Nothing was changed.", underlying: mapped)
                }
            }
        }
    }
#endif
