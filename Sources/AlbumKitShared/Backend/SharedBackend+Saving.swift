#if os(Linux)
    import AlbumKitCore
    import Foundation

    /// The saving contract of a shared library (``SharedBackend`` describes the protocol): checking
    /// that this member may save, staging (which starts each file's intent and upload), discarding,
    /// and the commit that waits for the uploads and writes album, assets and membership in one
    /// transaction, run again when the database connection is lost.
    extension SharedBackend {
        package struct Staged: Sendable {
            let id: String
            let file: FileSystem.StagedFile
            let byteSize: Int64
            let sha256: String
            let metadata: MediaMetadata
            let originalName: String?
            let isFavorite: Bool
            /// Its intent and upload, under way since it was staged.
            let upload: UploadTicket
            /// The files kept with it, staged beside it (``StagedMedia/Companion``).
            var companions: [StagedMedia.Companion] = []
        }

        /// Albums can always be used. A member who may only read is refused before anything is
        /// uploaded: here when the settings were read, else by the server in transaction A, which
        /// reads them (``recordIntents(_:)``).
        package func albumUnavailableReason(needsAlbum: Bool) async throws -> String? {
            if areSettingsKnown { try await Blocking.run { try self.requireWriter("save into the library") } }
            return nil
        }

        /// Fails with `.libraryUnwritable` unless the database role may save (insert assets, record
        /// uploads, add to albums): a reader's save or copy stops before it uploads anything. Asked
        /// of the server (`has_table_privilege`), once per library opened when the answer is yes.
        func requireWriter(_ what: String) throws {
            if isWriterKnown.withLock({ $0 }) { return }
            let row = try withDatabase("check this member's rights") { db -> [String?] in
                // Reading the settings first may just have told.
                if isWriterKnown.withLock({ $0 }) { return [nil, "t"] }
                return try db.execute(
                    """
                    SELECT current_user, has_table_privilege('asset', 'INSERT')
                        AND has_table_privilege('upload_intent', 'INSERT') AND has_table_privilege('album_asset', 'INSERT')
                        AND has_table_privilege('album', 'INSERT')
                    """
                ).first ?? []
            }
            guard row.count == 2, row[1] == "t" else {
                let role = row.first.flatMap { $0 } ?? "?"
                throw AlbumError(
                    .libraryUnwritable,
                    "Cannot \(what): the database role \(role) has read-only access to \(displayURL) (it may list, show, export and verify). Nothing was uploaded or changed; ask the library's administrator to make it a writer (`album init --print-roles`)."
                )
            }
            isWriterKnown.withLock { $0 = true }
        }

        package func stage(_ media: Media) async throws -> Staged {
            try await Blocking.run { try self.stageNow(media) }
        }

        /// Stages through ``StagedMedia``, the staging every library that copies files shares, and
        /// starts the file's intent and upload at once.
        private func stageNow(_ media: Media) throws -> Staged {
            // The photo and its companions (kept as objects of their own, uploaded before the
            // commit that names them) through StagedMedia.
            // A file that goes up in one PUT is read where it is, not copied: the store checks the
            // body against the SHA-256 sent with it, so a file changed after hashing is refused
            // there. A larger one (a multipart upload, whose parts are checked only against the
            // MD5s taken as they go) is copied first, so its parts are the bytes hashed.
            let staged = try StagedMedia(
                media, owners: stagingPath + "/owners", flush: false, inPlaceUpTo: S3Client.defaultMultipartThreshold
            ) {
                do {
                    _ = try FileSystem.makeDirectory(atPath: stagingPath, mode: 0o700)
                    return try FileSystem.openDirectory(stagingPath)
                } catch let error as SystemError {
                    throw error.libraryError("stage the photo")
                }
            }
            return Staged(
                id: UUID().uuidString.lowercased(), file: staged.file, byteSize: staged.byteSize, sha256: staged.sha256,
                metadata: media.described(staged.metadata), originalName: media.originalFilename,
                isFavorite: media.isFavorite,
                upload: uploads().submit(
                    sha256: staged.sha256, file: staged.file.descriptor, size: UInt64(staged.byteSize)),
                companions: staged.companions)
        }

        package func discard(_ staged: Staged) async {
            await Blocking.forEach(1) { _ in
                // Its upload reads the file: it must end first. Its intent, if any, is forgotten (else
                // it expires with this session and `gc` reclaims the object).
                if let intent = staged.upload.wait().intent { self.forgetIntents([intent]) }
                for companion in staged.companions { FileSystem.abandon(companion.file) }
                self.discardNow(staged.file)
            }
        }

        private func discardNow(_ file: FileSystem.StagedFile) {
            FileSystem.abandon(file)
            FileSystem.close(file.directory)
        }

        package func commit(_ staged: [Staged], to album: AlbumRequest?) async throws -> CommitReceipt {
            try await Blocking.run {
                var attempt = 1
                while true {
                    // The first attempt waits for the intents and uploads started at staging; any
                    // other starts them again, on the connection there is now.
                    let isFirst = attempt == 1 && staged.map { $0.upload.claim() }.allSatisfy { $0 }
                    let uploads = staged.map { item in
                        isFirst
                            ? item.upload
                            : self.uploads().submit(
                                sha256: item.sha256, file: item.file.descriptor, size: UInt64(item.byteSize))
                    }
                    do {
                        return try self.commitUploaded(staged, uploads, to: album)
                    } catch
                        where (error as? AlbumError)?.underlying is IntentsCollected
                        && attempt < Self.commitAttempts
                    {
                        // Recorded before the connection was lost (their session is gone), then
                        // collected by `gc`: the protocol again, from its intents.
                        attempt += 1
                    } catch  where self.isConnectionLost(error) && attempt < Self.commitAttempts {
                        // The database session ended (server restart, terminated backend): nothing of this
                        // attempt was acknowledged; every step is idempotent, so run it again (the
                        // reconnection itself waits for a restarting server).
                        attempt += 1
                    }
                }
            }
        }

        /// How many times one batch's commit runs when its database connection keeps being lost.
        static let commitAttempts = 5

        /// The one commit of a save, a batch of one or of many: waits for the photos' `uploads`
        /// (step 2 and 3, ``UploadPipeline``), uploads their companions (their own step, durable
        /// before the commit that names them), then transaction B; closes the staged files when it
        /// committed. A lost database connection is thrown as such (``commit(_:to:)`` then runs the
        /// whole protocol again); any failure forgets the upload records made for it.
        private func commitUploaded(_ staged: [Staged], _ uploads: [UploadTicket], to album: AlbumRequest?) throws
            -> CommitReceipt
        {
            let (photoIntents, restored) = try collect(
                zip(staged.map(\.sha256), uploads).map { $0 }, "upload the photos")
            let companionIntents: [String]
            do {
                companionIntents = try upload(
                    staged.flatMap(\.companions).map { ($0.sha256, $0.file.descriptor, UInt64($0.byteSize)) },
                    "upload the files kept with the photos"
                ).intents
            } catch {
                forgetIntents(photoIntents)
                throw error
            }
            let intents = photoIntents + companionIntents
            // Test hook only (pid 0 when the server cannot say).
            TestPause.at("after-upload", pid: (try? self.serverProcessID()) ?? 0)
            // B: album, assets and membership at once.
            let receipt: CommitReceipt
            let replaced = Locked<[(sha256: String, size: UInt64)]>([])
            do {
                receipt = try commitRows(staged, to: album, intents: intents, restored: restored, replaced: replaced)
            } catch {
                // Nothing was committed: forget the intents (if the session still exists) so `gc` can
                // reclaim what was uploaded.
                forgetIntents(intents)
                throw error
            }
            // Test hook only (pid 0 when the server cannot say).
            TestPause.at("after-commit", pid: (try? self.serverProcessID()) ?? 0)
            forgetStrandedIntents()
            let objects = replaced.withLock { $0 }
            if !objects.isEmpty {
                // The objects of companions this save replaced go now; one that cannot be removed now
                // is a stray object `gc` removes (the save itself is committed).
                _ = try? removeUnreferenced(objects)
            }
            for item in staged {
                for companion in item.companions { FileSystem.abandon(companion.file) }
                FileSystem.close(item.file.descriptor)
                FileSystem.close(item.file.directory)
            }
            return receipt
        }

        /// Transaction B (``commitRows(_:to:intents:restored:replaced:guess:)``), from the album's
        /// facts read before (``albumFacts``) when there are some, else reading them first; run
        /// again reading them when the server found them changed.
        private func commitRows(
            _ staged: [Staged], to album: AlbumRequest?, intents: [String], restored: Set<String>,
            replaced: Locked<[(sha256: String, size: UInt64)]>
        ) throws -> CommitReceipt {
            let guess = album.flatMap { album in
                album.albumID == nil ? albumFacts.take(forTitleKey: album.title.key) : nil
            }
            do {
                return try commitRows(
                    staged, to: album, intents: intents, restored: restored, replaced: replaced, guess: guess)
            } catch  where guess != nil && (error as? AlbumError)?.underlying is AlbumChanged {
                return try commitRows(
                    staged, to: album, intents: intents, restored: restored, replaced: replaced, guess: nil)
            }
        }

        /// Transaction B: the title's lock, the resolution rule, album, assets, membership, intents
        /// forgotten. `restored`: the SHA-256 of assets whose objects this save uploaded again.
        ///
        /// One round trip: the lock, the changes and `COMMIT` at once, the album's changes made from
        /// `guess` (the rule's facts read before the transaction: the remembered album, whether it
        /// exists, the oldest of the title), which the server checks under the lock
        /// (``SharedAlbumDirectory/checkedFacts(_:titleKey:)``). Without a guess, two with an
        /// album: the lock and the facts first. What decides between `COMMIT` and `ROLLBACK` (the
        /// facts changed, an intent collected meanwhile, an asset gone) is checked by the server in
        /// the same round trip, failing the transaction before its `COMMIT`
        /// (``checkedForgetting(_:)``, ``checkedAssetIDs``). With companions to record (their rows
        /// depend on the assets'), the changes and `COMMIT` take a round trip each.
        private func commitRows(
            _ staged: [Staged], to album: AlbumRequest?, intents: [String], restored: Set<String>,
            replaced: Locked<[(sha256: String, size: UInt64)]>, guess: [String?]?
        ) throws -> CommitReceipt {
            try withDatabase("save the photos", retrying: false) { db in
                let begin = ("BEGIN ISOLATION LEVEL READ COMMITTED", [String?]())
                var albumID: String?
                var outcome: AlbumOutcome?
                var changes: [(sql: String, parameters: [String?])] = []
                do {
                    if let album {
                        let lock = (
                            "SELECT pg_advisory_xact_lock(\(SharedSchema.titleLock), hashtext($1))", [album.title.key]
                        )
                        let facts: [String?]
                        if let guess, guess.count == 5 {
                            facts = guess
                            changes += [
                                begin, lock, SharedAlbumDirectory.checkedFacts(guess, titleKey: album.title.key),
                            ]
                        } else {
                            facts =
                                try db.pipeline([
                                    begin, lock, (SharedAlbumDirectory.factsQuery, [album.title.key, album.albumID]),
                                ])[2].first ?? []
                        }
                        // The album's creation and remembering join this transaction's one round trip
                        // of changes.
                        let queued = SharedAlbumDirectory.Queue()
                        let found = try album.findOrCreate(
                            in: SharedAlbumDirectory(db: db, facts: facts, queued: queued))
                        (albumID, outcome) = (found.id, found.outcome)
                        changes += queued.statements
                    } else {
                        changes.append(begin)
                    }
                    let shas = Self.arrayLiteral(staged.map(\.sha256))
                    // The assets in one statement (the first of identical bytes is inserted, the others
                    // and those already in the library resolve to the existing asset).
                    let assetsAt = changes.count
                    changes.append(
                        (
                            """
                            WITH input AS (
                                SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[],
                                                     $6::bigint[], $7::text[], $10::boolean[])
                                WITH ORDINALITY AS t(id, sha256, kind, format, original_name, byte_size, metadata, favorite, n)),
                            inserted AS (
                                INSERT INTO asset (id, sha256, kind, format, original_name, byte_size, added_at, metadata,
                                    saved_user, saved_host, saved_role, favorite)
                                SELECT DISTINCT ON (sha256) id, sha256, kind, format, original_name, byte_size,
                                    extract(epoch FROM now()), metadata, $8, $9, current_user, favorite
                                FROM input ORDER BY sha256, n
                                ON CONFLICT (sha256) DO NOTHING RETURNING id, sha256)
                            SELECT i.n, x.id IS NOT NULL AND x.id = i.id
                            FROM input i LEFT JOIN inserted x ON x.sha256 = i.sha256 ORDER BY i.n
                            """,
                            [
                                Self.arrayLiteral(staged.map(\.id)), shas,
                                Self.arrayLiteral(staged.map(\.metadata.kind.rawValue)),
                                Self.arrayLiteral(staged.map(\.metadata.format.rawValue)),
                                Self.arrayLiteral(staged.map(\.originalName)),
                                Self.arrayLiteral(staged.map { String($0.byteSize) }),
                                Self.arrayLiteral(
                                    staged.map {
                                        // Encoding metadata (strings, numbers, flags) cannot fail.
                                        try? String(decoding: Self.encoder.encode($0.metadata), as: UTF8.self)
                                    }
                                ),
                                saver.user, saver.host, Self.array(staged.map { $0.isFavorite ? "t" : "f" }),
                            ]
                        ))
                    // Bytes saved again while in recently deleted: the asset comes back (with its albums).
                    changes.append(
                        (
                            "UPDATE asset SET deleted_at = NULL WHERE sha256 = ANY($1::text[]) AND deleted_at IS NOT NULL",
                            [shas]
                        ))
                    if let albumID {
                        // A later statement sees the assets this transaction inserted and those another
                        // machine committed meanwhile.
                        changes.append(
                            (
                                """
                                INSERT INTO album_asset (album_id, asset_id, position, added_at)
                                SELECT $1, a.id, (SELECT coalesce(max(position), 0) FROM album_asset WHERE album_id = $1) + t.n,
                                    extract(epoch FROM now())
                                FROM unnest($2::text[]) WITH ORDINALITY AS t(sha256, n) JOIN asset a ON a.sha256 = t.sha256
                                ORDER BY t.n
                                ON CONFLICT DO NOTHING
                                """, [albumID, shas]
                            ))
                    }
                    let idsAt = changes.count
                    let commitsAtOnce = staged.allSatisfy { $0.companions.isEmpty }
                    if commitsAtOnce {
                        changes.append((Self.checkedAssetIDs, [shas]))
                        changes.append(Self.checkedForgetting(intents))
                        changes.append(("COMMIT", []))
                        // Test hook only: its rows not written (with the album's facts read first, the
                        // transaction open and its lock held).
                        TestPause.at("in-commit", pid: db.serverProcessID)
                    } else {
                        changes.append(("SELECT sha256, id FROM asset WHERE sha256 = ANY($1::text[])", [shas]))
                        changes.append(Self.forgetting(intents))
                    }
                    let results: [[[String?]]]
                    do { results = try db.pipeline(changes) } catch let error as PostgresError {
                        throw Self.refusedCommit(error) ?? error
                    }
                    let forgottenAt = commitsAtOnce ? changes.count - 2 : changes.count - 1
                    let isNew = results[assetsAt].map { $0[1] == "t" }
                    let ids = Dictionary(results[idsAt].map { ($0[0]!, $0[1]!) }, uniquingKeysWith: { a, _ in a })
                    let assetIDs = staged.map { ids[$0.sha256] }
                    guard isNew.count == staged.count, assetIDs.allSatisfy({ $0 != nil }) else {
                        throw AlbumError(.ioFailure, "An asset vanished while saving it; nothing was saved, try again.")
                    }
                    var objects: [(sha256: String, size: UInt64)] = []
                    let updated = try Self.recordCompanions(
                        staged, assetIDs: assetIDs.map { $0! }, isNew: isNew, in: db, replaced: &objects)
                    replaced.withLock { $0 = objects }
                    try Self.checkForgotten(results[forgottenAt], intents)
                    var reported = Set<String>()  // identical bytes twice in a batch: restored once
                    let rows: [Result<CommittedAsset, AlbumError>] = staged.indices.map { index in
                        let sha256 = staged[index].sha256
                        let isRestored = !isNew[index] && restored.contains(sha256) && reported.insert(sha256).inserted
                        return .success(
                            CommittedAsset(
                                assetID: assetIDs[index]!, isExisting: !isNew[index], isRestored: isRestored,
                                metadata: staged[index].metadata, companionsUpdated: updated[index]))
                    }
                    if !commitsAtOnce {
                        TestPause.at("in-commit", pid: db.serverProcessID)
                        try db.execute("COMMIT")
                    }
                    return CommitReceipt(albumID: albumID, albumOutcome: outcome, assets: rows)
                } catch {
                    // The error thrown is what matters; if even ROLLBACK fails, the server rolls back at disconnect.
                    if !db.isBroken { _ = try? db.execute("ROLLBACK") }
                    throw error
                }
            }
        }
    }
#endif
