/// The saving logic, done once for every backend: stage each item (a bad file fails alone),
/// commit in batches under a per-album gate, retry once when the album vanished, apply the access
/// policy, and report one result per item.
package struct Saver<Backend: LibraryBackend>: Sendable {
    package let backend: Backend
    /// The most items committed per transaction (bounds open files and transaction size); a
    /// batch's chunks are smaller when its share of the process's open files is
    /// (``DescriptorShares``).
    package var batchSize: Int
    /// The open files this save shares with the others running at once.
    package var descriptorShares = DescriptorShares.process

    package init(backend: Backend) {
        self.backend = backend
        // Two chunks are in flight, each staged item holding its file and its folder open.
        self.batchSize = max(1, min(backend.preferredBatchSize, FileSystem.descriptorBudget / 4))
    }

    /// Called with each item's index and result as soon as the item is durable (or has failed),
    /// in input order — before `save` returns.
    package typealias ResultHandler = @Sendable (_ index: Int, _ result: Result<SavedAsset, AlbumError>) -> Void

    /// Saves `media`, in order, into the album titled `title` (or the library only when `nil`).
    /// `onResult` sees each result as soon as it is final; cancelling the task lets the chunk being
    /// committed finish, discards what was staged after it, and reports the rest as `.cancelled`.
    /// With a `check` other than `.content`, files the library already holds are recognised first
    /// (``RecognitionCheck``): never copied, only added to the album where they are not in it yet.
    package func save(
        _ media: [Media], to title: AlbumTitle?, albumID: String? = nil, policy: AlbumAccessPolicy,
        recognising check: RecognitionCheck = .content, progress: (@Sendable (SaveProgress) -> Void)?,
        onResult: ResultHandler? = nil
    ) async -> [Result<SavedAsset, AlbumError>] {
        var results = [Result<SavedAsset, AlbumError>?](repeating: nil, count: media.count)
        let reports = ProgressReports(total: media.count, callback: progress)
        func report(_ index: Int, _ result: Result<SavedAsset, AlbumError>) {
            results[index] = result
            onResult?(index, result)
            switch result {
            case .success: reports.itemFinished(failed: false)
            case .failure: reports.itemFinished(failed: true)
            }
        }
        let prepared: @Sendable () -> Void = { reports.itemPrepared() }

        // Formats the library can never hold are refused before anything else, so that a batch of
        // only such files asks for no access at all; in a mixed batch they fail as if at staging.
        let refusals = refusals(of: media)
        func refusedOr(_ error: AlbumError, _ index: Int) -> AlbumError { refusals[index] ?? error }
        if !media.isEmpty, refusals.count == media.count {
            for index in media.indices { report(index, .failure(refusals[index]!)) }
            return results.map { $0! }
        }

        // Every byte saved is hashed: without SHA-256, nothing is tried.
        do { try SHA256Hasher.requireAvailable(to: "save into \(backend.libraryName)") } catch {
            for index in media.indices { report(index, .failure(refusedOr(error, index))) }
            return results.map { $0! }
        }

        // Access first: nothing is staged when the album cannot be used and the caller requires it.
        var request = title.map { title in
            var request = AlbumRequest(title: title)
            request.albumID = albumID
            return request
        }
        var skipReason: String?
        do {
            if let reason = try await backend.albumUnavailableReason(needsAlbum: request != nil), let title {
                switch policy {
                case .requireAlbum:
                    let error = AlbumError(
                        .accessDenied,
                        "Cannot use the album \"\(title.text)\": \(reason). Nothing was saved.",
                        albumTitle: title.text)
                    for index in media.indices { report(index, .failure(refusedOr(error, index))) }
                    return results.map { $0! }
                case .saveToLibraryWhenAlbumUnavailable:
                    skipReason = reason
                    request = nil
                }
            }
        } catch {
            let error = AlbumError.wrap(error)
            for index in media.indices { report(index, .failure(refusedOr(error, index))) }
            return results.map { $0! }
        }

        // Files the library already holds, recognised before anything is copied.
        let known = await recognised(media, check: check, in: request, refusals: refusals)
        for index in known.indices where known[index] != nil { prepared() }

        // Two chunks of staged files are open at once, each file with its folder: the chunks are
        // sized to this save's share of the process's open files (other saves may hold the
        // rest), and the descriptor table grows to hold them now, once, rather than doubling
        // mid-batch with every thread waiting (FileSystem).
        let share = media.count > 1 ? descriptorShares.take(upTo: 4 * min(batchSize, media.count)) : 0
        defer { descriptorShares.giveBack(share) }
        let batchSize = media.count > 1 ? max(1, share / 4) : batchSize
        if media.count > 1 { FileSystem.reserveDescriptorTable(for: 4 * batchSize + 64) }
        // A pipeline: while one chunk commits (mostly waiting for the disk to flush), the next one
        // is validated, copied and hashed (mostly CPU).
        var start = 0
        var staged =
            media.isEmpty
            ? []
            : await stage(media, 0..<min(batchSize, media.count), refusals: refusals, known: known, prepared: prepared)
        while start < media.count {
            let end = min(start + batchSize, media.count)
            if Task.isCancelled {
                // Nothing more is committed; what was committed stays committed.
                for case .success(let item)? in staged { await backend.discard(item) }
                let error = AlbumError(.cancelled, "The save was cancelled before this item was saved.")
                for index in start..<media.count {
                    report(index, .failure(error.naming(file: media[index].displayName)))
                }
                break
            }
            let following = end..<min(end + batchSize, media.count)
            async let next =
                following.isEmpty ? [] : stage(media, following, refusals: refusals, known: known, prepared: prepared)
            var chunk = [Result<SavedAsset, AlbumError>?](repeating: nil, count: end - start)
            var ready: [(offset: Int, staged: Backend.Staged)] = []
            var recognised: [Int] = []  // offsets of files the library already holds
            // Index loops, not `enumerated()`, `zip` or key paths: in this generic function each of
            // those makes the runtime look a generic type up by name at its first use, a scan of
            // every conformance record in the binary (Docs/performance.md).
            for offset in staged.indices {
                switch staged[offset] {
                case .success(let item)?: ready.append((offset, item))
                case .failure(let error)?: chunk[offset] = .failure(error)
                case nil: recognised.append(offset)
                }
            }
            // The album this chunk's commit used, for the recognised files.
            var committedAlbum: (id: String, outcome: AlbumOutcome?)?
            if !ready.isEmpty {
                var committed = await commit(ready.map { $0.staged }, to: request)
                if case .refused(let refusal) = committed {
                    // The album was refused with the access the user gave: the policy decides.
                    switch policy {
                    case .requireAlbum:
                        for item in ready { await backend.discard(item.staged) }
                        let error = AlbumError(
                            .accessDenied,
                            "Cannot use the album \"\(refusal.albumTitle)\": \(refusal.reason). Nothing was saved.",
                            albumTitle: refusal.albumTitle)
                        committed = .rows(ready.map { _ in .failure(error) })
                    case .saveToLibraryWhenAlbumUnavailable:
                        skipReason = refusal.reason
                        request = nil
                        committed = await commit(ready.map { $0.staged }, to: nil)
                    }
                }
                let rows = committed.rows
                for position in 0..<min(ready.count, rows.count) {
                    let (item, result) = (ready[position], rows[position])
                    if committedAlbum == nil, case .success(let row) = result, let id = row.albumID {
                        committedAlbum = (id, row.albumOutcome)
                    }
                    let companions = media[start + item.offset].companions
                    let keeps = backend is any CompanionKeeping
                    let mapped = result.map { asset in
                        var saved = SavedAsset(
                            assetID: asset.committed.assetID, albumID: asset.albumID,
                            albumOutcome: skipReason.map { .skipped($0) } ?? asset.albumOutcome ?? .notRequested,
                            isExisting: asset.committed.isExisting, isRestored: asset.committed.isRestored,
                            metadata: asset.committed.metadata)
                        saved.companionsLeftOut =
                            keeps ? asset.committed.companionsLeftOut : companions.map { $0.fileName }
                        saved.companionsUpdated = asset.committed.companionsUpdated
                        return saved
                    }
                    chunk[item.offset] = mapped.mapError { $0.naming(file: media[start + item.offset].displayName) }
                }
            }
            if !recognised.isEmpty {
                let album = await settle(
                    recognised.map { known[start + $0]! }, in: request, committedTo: committedAlbum)
                for offset in recognised {
                    let found = known[start + offset]!
                    chunk[offset] = album.map { album in
                        SavedAsset(
                            assetID: found.assetID, albumID: album?.id,
                            albumOutcome: skipReason.map { .skipped($0) } ?? album?.outcome ?? .notRequested,
                            isExisting: true)
                    }.mapError { $0.naming(file: media[start + offset].displayName) }
                }
            }
            // In input order, once the chunk is durable.
            for offset in chunk.indices { report(start + offset, chunk[offset]!) }
            staged = await next
            start = end
        }
        return results.map { $0! }
    }

    /// The items whose format the backend can never hold, by index, each with an
    /// `.unsupportedMedia` error naming the file. Other problems are left to staging.
    private func refusals(of media: [Media]) -> [Int: AlbumError] {
        var refusals: [Int: AlbumError] = [:]
        for index in media.indices {
            if let error = media[index].preparationError {
                refusals[index] = error
                continue
            }
            guard let location = media[index].location, !location.isValid else { continue }
            let name = media[index].displayName
            refusals[index] = AlbumError(
                .invalidArgument,
                "\(name): the location \(location.latitude), \(location.longitude) is not on Earth (latitude -90...90, longitude -180...180). Nothing was saved for it.",
                file: name)
        }
        let unsupported = backend.unsupportedFormats
        guard !unsupported.isEmpty else { return refusals }
        for (index, item) in media.enumerated() where refusals[index] == nil {
            // Unreadable here: not refused now; the save reads it and reports why.
            guard let format = try? MediaReader(item).metadata.format, unsupported.contains(format) else { continue }
            let name = item.displayName
            refusals[index] = AlbumError(
                .unsupportedMedia,
                "\(name) is a \(format.displayName) \(format.kind.rawValue), which \(backend.libraryName) cannot hold; convert it (to MP4 or JPEG), or save it to a catalog or folder library. Nothing was saved for it.",
                file: name)
        }
        return refusals
    }

    /// Stages `media[range]` with bounded concurrency, keeping their order; refused items fail
    /// without reaching the backend; recognised ones (`known`) are not staged: `nil`.
    private func stage(
        _ all: [Media], _ range: Range<Int>, refusals: [Int: AlbumError], known: [RecognisedFile?],
        prepared: @escaping @Sendable () -> Void
    ) async -> [Result<Backend.Staged, AlbumError>?] {
        let media = Array(all[range])
        let refused = range.map { refusals[$0] }
        let accepted = media.indices.filter { refused[$0] == nil && known[range.lowerBound + $0] == nil }
        let staged = await backend.stage(accepted.map { media[$0] }, prepared: prepared)
        var results = refused.map { refusal in refusal.map { Result<Backend.Staged, AlbumError>.failure($0) } }
        for (offset, index) in accepted.enumerated() { results[index] = staged[offset] }
        for _ in 0..<refused.count(where: { $0 != nil }) { prepared() }
        return results
    }

    /// The files of `media` the library already holds (``RecognitionCheck``), by index; `nil` for
    /// the others, for refused items, for assets recently deleted (saved as usual, which brings
    /// them back), and for photos whose companions changed (saved as usual, which updates them).
    private func recognised(
        _ media: [Media], check: RecognitionCheck, in request: AlbumRequest?, refusals: [Int: AlbumError]
    ) async -> [RecognisedFile?] {
        let none = [RecognisedFile?](repeating: nil, count: media.count)
        guard check != .content, let recognising = backend as? any FileRecognition, !media.isEmpty else { return none }
        let probes = Locked([FileProbe?](repeating: nil, count: media.count))
        await Blocking.forEach(media.count) { index in
            guard refusals[index] == nil else { return }
            let probe = FileProbe(media[index], hashing: check == .checksum)
            probes.withLock { $0[index] = probe }
        }
        // A library that cannot be read now is no reason to fail here: every file is then saved as
        // usual, and the save reports what is wrong with the library.
        guard let found = try? await recognising.recognise(probes.withLock { $0 }, in: request),
            found.count == media.count
        else { return none }
        // A photo whose companions changed since it was saved is saved as usual: the library finds
        // the photo then, and updates its companions.
        return found.map { $0?.isDeleted == true || $0?.companionsToUpdate.isEmpty == false ? nil : $0 }
    }

    /// The album for files recognised before copying, each added to it unless already in it:
    /// the album this chunk's commit used (`album`), else the one the files were found in, else
    /// the one `request` finds or creates. `nil` when no album was asked for.
    private func settle(
        _ found: [RecognisedFile], in request: AlbumRequest?, committedTo album: (id: String, outcome: AlbumOutcome?)?
    ) async -> Result<(id: String, outcome: AlbumOutcome?)?, AlbumError> {
        guard let request else { return .success(nil) }
        let backend = self.backend
        let key = "\(backend.identity)\u{0}\(request.title.key)"
        // Only a library that recognises files finds them, and such a library edits its albums.
        guard let editing = backend as? any AlbumEditing else {
            return .failure(AlbumError(.notSupported, "\(backend.libraryName) cannot add assets to an album."))
        }
        do {
            return .success(
                try await TitleGate.shared.withExclusiveAccess(to: key) {
                    var target = album
                    if target == nil, let id = found.first(where: { $0.albumID != nil })?.albumID {
                        target = (id, .found)
                    }
                    var missing: [String] = []
                    for item in found
                    where (!item.isMember || item.albumID != target?.id)
                        && !missing.contains(item.assetID)
                    {
                        missing.append(item.assetID)
                    }
                    guard !missing.isEmpty else { return target }
                    if target == nil {
                        if let id = request.albumID {
                            target = (id, .found)
                        } else {
                            let made = try await editing.createAlbum(titled: request.title)
                            target = (made.id, made.outcome)
                        }
                    }
                    _ = try await editing.addAssets(missing, toAlbumWithID: target!.id)
                    return target
                })
        } catch {
            return .failure(AlbumError.wrap(error))
        }
    }

    private typealias Row = (committed: CommittedAsset, albumID: String?, albumOutcome: AlbumOutcome?)

    /// What one commit gave: a result per item, or the album refused (nothing saved, staged kept).
    private enum Committed {
        case rows([Result<Row, AlbumError>])
        case refused(AlbumRefused)

        var rows: [Result<Row, AlbumError>] {
            switch self {
            case .rows(let rows): rows
            case .refused: []
            }
        }
    }

    /// Commits under the album's gate; retries once if the album vanished before the commit.
    private func commit(_ staged: [Backend.Staged], to request: AlbumRequest?) async -> Committed {
        let backend = self.backend
        let attempt: @Sendable (AlbumRequest?) async throws -> CommitReceipt = { request in
            try await backend.commit(staged, to: request)
        }
        do {
            let receipt: CommitReceipt
            if let request {
                let key = "\(backend.identity)\u{0}\(request.title.key)"
                receipt = try await TitleGate.shared.withExclusiveAccess(to: key) {
                    do {
                        return try await attempt(request)
                    } catch is AlbumVanished {
                        var retry = request
                        retry.vanished = true
                        do { return try await attempt(retry) } catch is AlbumVanished {
                            throw AlbumError(
                                .albumUnavailable,
                                "The album \"\(request.title.text)\" keeps disappearing while saving; nothing was saved. Try again.",
                                albumTitle: request.title.text)
                        }
                    }
                }
            } else {
                receipt = try await attempt(nil)
            }
            return .rows(
                receipt.assets.map { result in
                    result.map { asset -> Row in
                        (asset, receipt.albumID, receipt.albumOutcome)
                    }
                })
        } catch let refusal as AlbumRefused where request != nil {
            return .refused(refusal)
        } catch {
            for item in staged { await backend.discard(item) }
            let error = AlbumError.wrap(error)
            return .rows(staged.map { _ in .failure(error) })
        }
    }
}
