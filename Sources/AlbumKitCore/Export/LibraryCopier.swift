import Foundation

/// Copies every asset and album of one library into another through their public operations, so
/// that any kind that lists its assets' SHA-256 (catalog, shared) copies into any other.
///
/// The target's assets are listed first, by SHA-256: bytes it holds are never copied again. The
/// others go in batches: each original is exported (``AlbumExporter``: a shared library's object
/// is hashed as it arrives) into a folder of its own under a temporary folder, so it keeps its
/// name; its SHA-256 is checked against the source's; then the batch is saved with the asset's
/// capture date, location and favourite. Each album is then found or created by title and given
/// the assets it lacks, in the source's order. Every step is a save or an album change the target
/// makes atomically, so a copy killed at any moment leaves whole assets and memberships; running it
/// again finds them and does the rest.
struct LibraryCopier {
    let source: PhotoLibrary
    let target: PhotoLibrary
    /// Where the originals wait between export and save (one run's own folder).
    let staging: URL

    /// Assets exported and saved at once.
    static let batchSize = 32

    func run() async throws -> CopyReport {
        var report = CopyReport()
        let sourceBackend = try await source.backend
        var copies: [String: String] = [:]  // SHA-256 → the target's asset
        for asset in try await Self.everyAsset(of: target) {
            // Without the checksums of what is there, a second run could not tell what it copied.
            guard let sha256 = asset.sha256 else { throw Self.noChecksums(asset) }
            copies[sha256] = copies[sha256] ?? asset.id
        }
        var seen = Set<String>()
        var missing: [AssetInfo] = []
        for asset in try await Self.everyAsset(of: source) {
            guard let sha256 = asset.sha256 else { throw Self.noChecksums(asset) }
            guard seen.insert(sha256).inserted else { continue }
            if copies[sha256] != nil { report.existingAssets += 1 } else { missing.append(asset) }
        }
        try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: staging) }  // temporary copies of what was saved
        var start = 0
        while start < missing.count {
            try Task.checkCancellation()
            let batch = Array(missing[start..<min(start + Self.batchSize, missing.count)])
            let folders = batch.indices.map { staging.appendingPathComponent("\(start + $0)") }
            start += batch.count
            var media: [Media] = []
            var sent: [AssetInfo] = []
            for (asset, folder) in zip(batch, folders) {
                do {
                    let (file, companions) = try await fetch(asset, from: sourceBackend, into: folder)
                    media.append(
                        Media.file(file).with(
                            creationDate: asset.capturedAt, location: asset.location, isFavorite: asset.isFavorite
                        ).with(companions: companions))
                    sent.append(asset)
                } catch {
                    let error = AlbumError.wrap(error)
                    report.failures.append(.init(assetID: asset.id, code: error.code, message: error.message))
                    if Self.stopsTheCopy(error) { throw error }
                }
            }
            var fatal: AlbumError?
            for (asset, result) in zip(sent, await target.save(media)) {
                switch result {
                case .success(let saved):
                    copies[asset.sha256!] = saved.assetID
                    if saved.isExisting { report.existingAssets += 1 } else { report.copiedAssets += 1 }
                case .failure(let error):
                    report.failures.append(.init(assetID: asset.id, code: error.code, message: error.message))
                    if Self.stopsTheCopy(error) { fatal = fatal ?? error }
                }
            }
            if let fatal { throw fatal }
            for folder in folders { try? FileManager.default.removeItem(at: folder) }  // saved or reported
            TestPause.at("copy-batch")  // a batch saved, the next not begun
        }
        try await copyAlbums(copies, into: &report)
        return report
    }

    /// Finds or creates each album of the source in the target (by title) and adds the assets it
    /// lacks, in the source album's order.
    private func copyAlbums(_ copies: [String: String], into report: inout CopyReport) async throws {
        var existing = Set(try await target.albums().map(\.id))
        for album in try await source.albums() {
            try Task.checkCancellation()
            let copy = try await target.createAlbum(titled: album.title)
            if existing.insert(copy.id).inserted { report.albums += 1 }
            var present = Set(try await target.assets(inAlbumWithID: copy.id).compactMap(\.sha256))
            var wanted: [String] = []
            for asset in try await source.assets(inAlbumWithID: album.id) {
                guard let sha256 = asset.sha256, let id = copies[sha256], present.insert(sha256).inserted else {
                    continue
                }
                wanted.append(id)
            }
            guard !wanted.isEmpty else { continue }
            _ = try await target.addAssets(withIDs: wanted, toAlbumWithID: copy.id)
            report.memberships += wanted.count
        }
    }

    /// The original of `asset`, written into `folder` under its name and checked against its SHA-256,
    /// with its companions beside it (each checked by the exporter as it arrives), to save with it.
    private func fetch(_ asset: AssetInfo, from backend: any LibraryBackend, into folder: URL) async throws
        -> (URL, [MediaCompanion])
    {
        let exported = try await Blocking.run {
            let store = backend as? any OriginalDownloading
            var exporter = AlbumExporter(directory: folder) { try store?.copyOriginal(of: $0, into: $1) ?? false }
            exporter.fetchCompanion = { try store?.copyCompanion($0, into: $1) ?? false }
            return try exporter.export([asset])
        }
        if let failure = exported.failures.first {
            throw AlbumError(failure.code, failure.message)
        }
        guard let name = exported.exported.first?.name else {
            throw AlbumError(
                .ioFailure, "The original of asset \(asset.id) was not written; nothing was copied for it.")
        }
        let file = folder.appendingPathComponent(name)
        let sha256 = try await Blocking.run { () throws -> String in
            let (descriptor, _) = try FileSystem.openForReading(file.path)
            return try FileSystem.sha256(of: descriptor)
        }
        guard sha256 == asset.sha256 else {
            throw AlbumError(
                .libraryCorrupt,
                "The original of \(asset.originalFilename ?? asset.id) read from the source has SHA-256 \(sha256), the library says \(asset.sha256 ?? "?"); it was not copied. Run `album verify` on the source.",
                file: asset.fileURL?.path)
        }
        // The companions written, in the asset's order (each named after the photo).
        let names = exported.exported.first?.companions ?? []
        let companions = zip(asset.companions, names).compactMap { companion, name -> MediaCompanion? in
            let url = folder.appendingPathComponent(name)
            guard FileManager.default.fileExists(atPath: url.path) else { return nil }
            return MediaCompanion(role: companion.role, path: FileSystemPath(url.path))
        }
        return (file, companions)
    }

    /// A failure that every following asset would meet the same way (a full disk, a library out of
    /// reach or read-only): the copy stops, and a later run goes on from there.
    private static func stopsTheCopy(_ error: AlbumError) -> Bool {
        [.notEnoughSpace, .libraryNotFound, .libraryUnwritable, .accessDenied, .cancelled].contains(error.code)
    }

    /// A library that does not list its assets' SHA-256 (a folder library, Photos): nothing is copied.
    private static func noChecksums(_ asset: AssetInfo) -> AlbumError {
        AlbumError(
            .notSupported,
            "Cannot copy: the library of asset \(asset.id) (\(asset.originalFilename ?? "?")) does not list checksums, and a copy needs them to know what is already there; copy between catalog and shared libraries. Nothing was copied."
        )
    }

    /// Every asset of `library`, oldest first.
    private static func everyAsset(of library: PhotoLibrary) async throws -> [AssetInfo] {
        var all: [AssetInfo] = []
        var cursor: String?
        repeat {
            let page = try await library.assets(orderedBy: .dateAdded, after: cursor, limit: 1000)
            all += page.assets
            cursor = page.nextCursor
        } while cursor != nil
        return all
    }
}
