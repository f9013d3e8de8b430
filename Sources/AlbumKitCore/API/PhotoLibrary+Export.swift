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
    /// - Throws: `.albumNotFound`; `.invalidArgument` when `directory` is a file; `.accessDenied`,
    ///   `.notEnoughSpace`… when the folder cannot be written.
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
        try await Self.mapping {
            let assets = try await assets(inAlbumWithID: id)
            return try await Blocking.run { try AlbumExporter(directory: directory.standardizedFileURL).export(assets) }
        }
    }
}
