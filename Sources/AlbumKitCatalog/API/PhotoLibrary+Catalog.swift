import AlbumKitCore
import Foundation

extension PhotoLibrary {
    /// AlbumKit's own library at `url` (a `NAME.albumlibrary` directory), created if missing
    /// unless `createIfMissing` is `false`.
    ///
    /// Returns at once: the catalog is opened on a background thread (which can take long when
    /// another process holds its lock — up to 60 s), and the first call that uses the library waits
    /// for it and throws what opening threw. `onNotice` hears, as it happens, what opening did that
    /// the user should know of: the catalog rebuilt from the journal, the library converted from
    /// the previous release (else ``notices()`` returns them).
    ///
    /// ```swift
    /// let library = try PhotoLibrary.catalog(at: URL(fileURLWithPath: "/data/Photos.albumlibrary"))
    /// ```
    /// - Throws: `.libraryNotFound` at once when `createIfMissing` is `false` and there is no library;
    ///   later, from the first use: `.libraryCorrupt` when the directory holds something that is not
    ///   an AlbumKit catalog, `.libraryUnwritable` / `.accessDenied` when it cannot be created or
    ///   written, `.libraryNotFound` when its parent folder does not exist, `.libraryBusy`.
    public static func catalog(
        at url: URL, createIfMissing: Bool = true, onNotice: (@Sendable (String) -> Void)? = nil
    ) throws -> PhotoLibrary {
        if !createIfMissing {
            // Cheap checks only (no lock is taken): a missing library fails here, as before.
            guard CatalogBackend.isLibrary(url.standardizedFileURL) else {
                throw AlbumError(
                    .libraryNotFound,
                    "There is no AlbumKit library at \(url.standardizedFileURL.path); save a photo to create it.")
            }
        }
        return PhotoLibrary(opening: { try CatalogBackend.open(at: url, create: createIfMissing, onNotice: onNotice) })
    }

    /// Rebuilds the catalog (the index) of the AlbumKit library at `url` from its journal and last
    /// snapshot, and adopts the files in `originals/` that no record names into the album
    /// "Recovered", with their metadata. Opening a library already rebuilds a missing or damaged
    /// catalog on its own; repair is for when `verify` reports files or disagreements. Nothing in
    /// `originals/` is deleted; a damaged catalog is kept in `damaged/`.
    ///
    /// ```swift
    /// let report = try await PhotoLibrary.repair(catalogAt: URL(fileURLWithPath: "Photos.albumlibrary"))
    /// print("\(report.restoredAssets) assets, not restored: \(report.notRestored)")
    /// ```
    /// - Throws: `.libraryNotFound`; `.libraryCorrupt` when the catalog is another application's
    ///   database or from a newer AlbumKit (nothing is changed).
    public static func repair(catalogAt url: URL) async throws -> RepairReport {
        try await mapping { try await Blocking.run { try CatalogRepair.run(at: url) } }
    }

    /// As ``repair(catalogAt:)``, calling `progress` after each file no record names is read
    /// (adopted, or left in place): files and bytes done of all such files.
    ///
    /// ```swift
    /// let report = try await PhotoLibrary.repair(catalogAt: url) { print("\($0.completed)/\($0.total)") }
    /// ```
    public static func repair(
        catalogAt url: URL, progress: @escaping @Sendable (VerificationProgress) -> Void
    ) async throws -> RepairReport {
        try await mapping { try await Blocking.run { try CatalogRepair.run(at: url, progress: progress) } }
    }

    /// What opening the catalog library did that its user should hear of, each said once: "The
    /// library's catalog was rebuilt from its journal (…)", "The library was converted …". Empty for
    /// other kinds of library.
    ///
    /// ```swift
    /// for notice in try await library.notices() { print(notice) }
    /// ```
    public func notices() async throws -> [String] {
        guard let catalog = try await backend as? any OpeningNotices else { return [] }
        return catalog.takeNotices()
    }
}
