/// Saving that recognises files the library already holds before copying them
/// (``RecognitionCheck``), and the read-only lookup a dry run predicts with.
extension PhotoLibrary {
    /// As ``save(_:progress:onResult:)``, with files the library already holds recognised by
    /// `check` first: never copied, reported as existing.
    ///
    /// ```swift
    /// let results = await library.save(card.map { .path($0) }, recognising: .quick)
    /// ```
    package func save(
        _ media: [Media], recognising check: RecognitionCheck, progress: (@Sendable (SaveProgress) -> Void)? = nil,
        onResult: (@Sendable (_ index: Int, _ result: Result<SavedAsset, AlbumError>) -> Void)? = nil
    ) async -> [Result<SavedAsset, AlbumError>] {
        await Self.run(
            opening, media, album: nil, policy: .requireAlbum, recognising: check, progress: progress,
            onResult: onResult)
    }

    /// For each probe, the asset that already holds the file where a save into `album` (or into
    /// the library only) would look for it, or `nil`; changes nothing.
    ///
    /// ```swift
    /// let found = try await library.recognise(card.map { FileProbe(.path($0), hashing: false) }, in: "Trips")
    /// ```
    package func recognise(
        _ probes: [FileProbe?], in album: String?, albumID: String? = nil
    ) async throws -> [RecognisedFile?] {
        try await Self.mapping {
            let request = try album.map { title in
                var request = AlbumRequest(title: try AlbumTitle(title))
                request.albumID = albumID
                return request
            }
            guard let recognising = try await backend as? any FileRecognition else { return probes.map { _ in nil } }
            return try await recognising.recognise(probes, in: request)
        }
    }
}

extension PhotoLibrary {
    /// The SHA-256 of the asset's bytes as the library holds them, read back now; `nil` when this
    /// library cannot read its copies back (Photos, a shared library).
    ///
    /// ```swift
    /// let intact = try await library.storedSHA256(ofAssetWithID: saved.assetID) == sourceSHA256
    /// ```
    package func storedSHA256(ofAssetWithID id: String) async throws -> String? {
        try await Self.mapping { try await storedCopyReading()?.storedSHA256(ofAssetWithID: id) }
    }

    /// The SHA-256s of the files kept with asset `id` (sidecars, the raw of a pair), read back
    /// now: what `album import --move` checks before it removes them from the card.
    package func storedCompanionSHA256s(ofAssetWithID id: String) async throws -> Set<String> {
        try await Self.mapping { try await storedCopyReading()?.storedCompanionSHA256s(ofAssetWithID: id) ?? [] }
    }

    /// The asset's files as the library holds them, read back now (SHA-256, device and inode), and
    /// the library's folder; `nil` when this library cannot read its copies back as files.
    ///
    /// ```swift
    /// if let copies = try await library.storedCopies(ofAssetWithID: saved.assetID) {
    ///     _ = SourceRemoval.remove(FileSystemPath(path), copies: copies)
    /// }
    /// ```
    package func storedCopies(ofAssetWithID id: String) async throws -> StoredCopies? {
        try await Self.mapping { try await storedCopyReading()?.storedCopies(ofAssetWithID: id) }
    }

    /// The backend when it reads back the copies it holds; `nil` for a kind that cannot.
    private func storedCopyReading() async throws -> (any StoredCopyReading)? {
        try await backend as? any StoredCopyReading
    }
}
