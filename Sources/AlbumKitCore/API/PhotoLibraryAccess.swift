/// The access a photo library gives the app at one ``PhotoLibraryAccessLevel`` (PhotoKit's
/// `PHAuthorizationStatus`). AlbumKit's own libraries (catalog, folders, shared, in memory) are
/// always ``authorized``; Photos answers what the user chose.
///
/// What to show for each:
///
/// | Access | Show |
/// | --- | --- |
/// | ``notDetermined`` | your own explanation first, then ``PhotoLibrary/requestAccess(for:)`` (the system prompt comes once) |
/// | ``authorized`` | the feature |
/// | ``limited`` | the feature, with a way to select more photos (`presentLimitedLibraryPicker(from:)` on iOS) |
/// | ``denied`` | why the feature needs access, and a button that opens Settings (`UIApplication.openSettingsURLString`); the prompt does not come again |
/// | ``restricted`` | that photo access is blocked on this device (parental controls or management) — no Settings button: the user cannot change it |
///
/// ```swift
/// switch try await PhotoLibrary.system.access(for: .readWrite) {
/// case .notDetermined: showExplanation()
/// case .authorized, .limited: showAlbum()
/// case .denied: showOpenSettings()
/// case .restricted: showRestrictedNotice()
/// }
/// ```
public enum PhotoLibraryAccess: String, Sendable, Hashable, CaseIterable, Codable, CustomStringConvertible {
    /// The user was never asked; ``PhotoLibrary/requestAccess(for:)`` (or the first save) prompts.
    case notDetermined
    /// The device does not allow photo access (parental controls, device management).
    case restricted
    /// The user refused; only Settings can change it.
    case denied
    /// Read-write access to the photos the user selected, and adding new ones (iOS). Saving works;
    /// whether Photos lets the app use albums is not documented (see ``AlbumAccessPolicy``).
    case limited
    /// Full access at the level asked.
    case authorized

    /// Whether the app may go ahead at this level (``authorized`` or ``limited``).
    ///
    /// ```swift
    /// if try await library.access(for: .addOnly).isGranted { try await library.save(.file(url)) }
    /// ```
    public var isGranted: Bool { self == .authorized || self == .limited }

    /// Whether asking (``PhotoLibrary/requestAccess(for:)``) can still show the system prompt:
    /// only while ``notDetermined``. Otherwise asking returns the status at once.
    public var canPrompt: Bool { self == .notDetermined }

    /// `notDetermined`, `restricted`, `denied`, `limited` or `authorized`.
    public var description: String { rawValue }
}
