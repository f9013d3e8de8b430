/// Photos access as its own step: what the app may do now, and asking for more — so an app can
/// show its own explanation before the system prompt, an "Open Settings" screen when access was
/// denied, and a way to select more photos under limited access. AlbumKit's own libraries
/// (catalog, folders, shared, in memory) are always ``PhotoLibraryAccess/authorized``.
///
/// Saving asks by itself when it has to (add-only for ``save(_:)``, read-write for an album), so
/// calling these is never required.
extension PhotoLibrary {
    /// The access the app has at `level` now. Never prompts.
    ///
    /// ```swift
    /// if try await PhotoLibrary.system.access(for: .readWrite) == .denied { showOpenSettings() }
    /// ```
    /// - Throws: what opening the library threw (a catalog that cannot be opened).
    public func access(for level: PhotoLibraryAccessLevel = .readWrite) async throws -> PhotoLibraryAccess {
        try await Self.mapping {
            guard let controlled = try await backend as? any AccessControl else { return .authorized }
            return await controlled.access(for: level)
        }
    }

    /// The access the app has at `level` now, read without waiting and without prompting: for a
    /// SwiftUI `body` choosing a screen (``PhotoLibraryAccessModel`` keeps it current). AlbumKit's
    /// own libraries answer ``PhotoLibraryAccess/authorized``.
    ///
    /// ```swift
    /// switch PhotoLibrary.system.currentAccess(for: .savingIntoAlbums) {
    /// case .notDetermined: ExplanationView()
    /// case .authorized, .limited: AlbumView()
    /// case .denied, .restricted: SettingsHintView()
    /// }
    /// ```
    public func currentAccess(for level: PhotoLibraryAccessLevel = .savingIntoAlbums) -> PhotoLibraryAccess {
        opening.currentAccess?(level) ?? .authorized
    }

    /// Asks the user for `level` when they were never asked (the system prompt shows once, with
    /// the Info.plist text: `NSPhotoLibraryAddUsageDescription` for `.addOnly`,
    /// `NSPhotoLibraryUsageDescription` for `.readWrite`); otherwise returns the access at once.
    ///
    /// ```swift
    /// showExplanation()   // your own screen first
    /// let access = try await PhotoLibrary.system.requestAccess(for: .readWrite)
    /// if access.isGranted { try await album.save(.file(url)) }
    /// ```
    /// - Throws: what opening the library threw.
    @discardableResult
    public func requestAccess(for level: PhotoLibraryAccessLevel = .readWrite) async throws -> PhotoLibraryAccess {
        try await Self.mapping {
            guard let controlled = try await backend as? any AccessControl else { return .authorized }
            return await controlled.requestAccess(for: level)
        }
    }
}
