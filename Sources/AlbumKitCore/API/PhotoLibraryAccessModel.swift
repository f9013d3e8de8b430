#if canImport(Combine)
    import Combine
#endif

/// The access a screen shows, kept current: for a SwiftUI view (an `ObservableObject` on Apple
/// platforms, so `@StateObject` redraws the view when it changes) or any code on the main actor.
/// It reads the access without waiting (``PhotoLibrary/currentAccess(for:)``), asks the user when
/// told to (``request()``), and reads it again when told to (``refresh()``, e.g. when the app comes
/// back from Settings).
///
/// ```swift
/// struct AlbumScreen: View {
///     @StateObject var model = PhotoLibraryAccessModel(library: .system, level: .savingIntoAlbums)
///     @Environment(\.scenePhase) var phase
///
///     var body: some View {
///         Group {
///             switch model.access {
///             case .notDetermined: Button("Allow access") { Task { await model.request() } }
///             case .authorized, .limited: AlbumGrid()
///             case .denied: Button("Open Settings") { Task { await PhotoLibrary.openSettings() } }
///             case .restricted: Text("Photo access is blocked on this device.")
///             }
///         }
///         .onChange(of: phase) { _ in model.refresh() }
///     }
/// }
/// ```
@MainActor
public final class PhotoLibraryAccessModel {
    /// The library whose access is shown.
    public let library: PhotoLibrary
    /// The level shown: ``PhotoLibraryAccessLevel/savingIntoAlbums`` or ``PhotoLibraryAccessLevel/addingOnly``.
    public let level: PhotoLibraryAccessLevel

    #if canImport(Combine)
        /// The access now, as last read or answered (published: SwiftUI redraws on a change).
        @Published public private(set) var access: PhotoLibraryAccess
    #else
        /// The access now, as last read or answered.
        public private(set) var access: PhotoLibraryAccess
    #endif

    /// A model showing `library`'s access at `level`, read now without prompting.
    ///
    /// ```swift
    /// let model = PhotoLibraryAccessModel(library: library, level: .savingIntoAlbums)
    /// ```
    public init(library: PhotoLibrary, level: PhotoLibraryAccessLevel = .savingIntoAlbums) {
        self.library = library
        self.level = level
        self.access = library.currentAccess(for: level)
    }

    /// Whether the app may go ahead (``PhotoLibraryAccess/isGranted``).
    public var isGranted: Bool { access.isGranted }

    /// Reads the access again, without prompting (the user may have changed it in Settings).
    ///
    /// ```swift
    /// model.refresh()
    /// ```
    public func refresh() { access = library.currentAccess(for: level) }

    /// Asks the user when they were never asked (the system prompt comes once), and shows the answer.
    ///
    /// ```swift
    /// Button("Allow access") { Task { await model.request() } }
    /// ```
    @discardableResult
    public func request() async -> PhotoLibraryAccess {
        // A request that fails changes nothing: the access shown is the one the library has now.
        let answer = (try? await library.requestAccess(for: level)) ?? library.currentAccess(for: level)
        access = answer
        return answer
    }
}

#if canImport(Combine)
    extension PhotoLibraryAccessModel: ObservableObject {}
#endif
