import Foundation

extension PhotoLibrary {
    /// Copies every photo and video of this library into `target`, with their names, capture
    /// dates, locations and favourites, and every album with its photos in order (an album is found
    /// by its title, or created). Bytes `target` already holds are not copied again, so running it
    /// again — after an interruption, or to bring a backup up to date — copies only what is missing.
    /// Each original's SHA-256 is checked as it is copied. Both libraries must list their assets'
    /// SHA-256 (catalog and shared libraries do; folder libraries and Photos do not).
    ///
    /// ```swift
    /// let backup = try PhotoLibrary.catalog(at: URL(fileURLWithPath: "/mnt/disk/Family.albumlibrary"))
    /// let report = try await PhotoLibrary.sharedCatalog(at: libraryURL).copy(into: backup)
    /// print(report.copiedNothing ? "up to date" : "\(report.copiedAssets) copied")
    /// ```
    /// - Throws: `.notSupported` when a library does not record SHA-256; what the target's save
    ///   throws when it cannot be written at all (`.notEnoughSpace`, `.libraryUnwritable`, …).
    ///   An asset that cannot be copied alone is in ``CopyReport/failures``.
    public func copy(into target: PhotoLibrary) async throws -> CopyReport {
        try await Self.mapping {
            let staging = FileManager.default.temporaryDirectory.appendingPathComponent(
                "albumkit-copy-\(UUID().uuidString)")
            return try await LibraryCopier(source: self, target: target, staging: staging).run()
        }
    }
}
