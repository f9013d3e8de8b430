import Foundation

extension PhotoLibrary {
    /// Copies the album's originals into the folder `directory` (created, with its parents, if
    /// missing), with their original names — `name 2.jpg` when a name is taken — and their capture
    /// dates as modification times. Nothing in the folder is overwritten. An asset that cannot be
    /// copied is reported in ``ExportReport/failures``; the others are still exported.
    ///
    /// ```swift
    /// let report = try await library.exportAlbum(titled: "Trips", to: URL(fileURLWithPath: "/tmp/Trips"))
    /// print(report.exported.count, report.failures.count)
    /// ```
    /// - Throws: `.albumNotFound`; `.invalidArgument` when `directory` is a file or lies inside the
    ///   library itself (a folder library's folders are albums: the copies would double the album;
    ///   a catalog's folders are its own); `.accessDenied`, `.notEnoughSpace`… when the folder
    ///   cannot be written.
    public func exportAlbum(titled title: String, to directory: URL) async throws -> ExportReport {
        try await Self.mapping { try await exportAlbum(withID: try await existingAlbumID(title), to: directory) }
    }

    /// Copies the originals of the album with identifier `id` into `directory` (see
    /// ``exportAlbum(titled:to:)``).
    ///
    /// ```swift
    /// let report = try await library.exportAlbum(withID: info.id, to: folder)
    /// ```
    public func exportAlbum(withID id: String, to directory: URL) async throws -> ExportReport {
        try await exportAlbum(withID: id, to: directory, progress: nil)
    }

    /// As ``exportAlbum(withID:to:)``, telling `progress` after each asset; with `dryRun`, writes
    /// nothing (not even the folder) and returns what the export would do: the names each asset
    /// would be written under, and the assets already there.
    ///
    /// ```swift
    /// let plan = try await library.exportAlbum(withID: info.id, to: folder, dryRun: true, progress: nil)
    /// for file in plan.exported { print("would write", file.name) }
    /// ```
    ///
    /// `naming`, when given, names each asset (before any ` 2` for a taken name) from the asset and
    /// its place in the album (1 for the first); its sidecars and raw follow that name:
    ///
    /// ```swift
    /// let report = try await library.exportAlbum(
    ///     withID: info.id, to: folder, naming: { asset, n in "Trip \(n).jpg" }, progress: nil)
    /// ```
    public func exportAlbum(
        withID id: String, to directory: URL, dryRun: Bool = false,
        naming: (@Sendable (AssetInfo, Int) -> String)? = nil,
        progress: (@Sendable (ExportProgress) -> Void)?
    ) async throws -> ExportReport {
        try await Self.mapping {
            let backend = try await backend
            try Self.refuseExport(into: directory, of: backend)
            let store = backend as? any OriginalDownloading
            let assets = try await assets(inAlbumWithID: id)
            return try await Blocking.run {
                var exporter = AlbumExporter(directory: directory.standardizedFileURL) { asset, file in
                    try store?.copyOriginal(of: asset, into: file) ?? false
                }
                exporter.fetchCompanion = { try store?.copyCompanion($0, into: $1) ?? false }
                exporter.progress = progress
                exporter.dryRun = dryRun
                exporter.naming = naming
                return try exporter.export(assets)
            }
        }
    }

    /// Refuses an export folder inside the library's own folder (after symlinks and `..` are
    /// resolved): in a folder library the copies would become photos of the album exported, or of
    /// another album; in a catalog library they would be stray files among the catalog's own.
    static func refuseExport(into directory: URL, of backend: any LibraryBackend) throws {
        // The system's photo library keeps no folder of its own here.
        guard let library = backend.libraryFolder else { return }
        let destination = FileSystem.resolvedPath(directory.path)
        guard FileSystem.isPath(directory.path, inside: library.root.path) else { return }
        let resolved = destination == directory.standardizedFileURL.path ? "" : " (\(destination))"
        throw AlbumError(
            .invalidArgument,
            "Cannot export into \(directory.path)\(resolved): it is inside the \(library.kind) \(library.root.path), where the copies would become part of the library. Nothing was exported; choose a folder outside the library.",
            file: directory.path)
    }
}
