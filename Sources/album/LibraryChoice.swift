import AlbumKit
import Foundation

/// Which library a command works on: `--system`, `--library PATH`, `$ALBUMKIT_LIBRARY`, or the
/// default catalog under `$XDG_DATA_HOME/albumkit/`; and which kind it is.
///
/// An existing path is what it holds: a catalog (`.albumlibrary` or a `catalog.sqlite` inside) or a
/// folder library (any other folder). A path that does not exist yet becomes a new library only
/// when its kind is stated — the `.albumlibrary` suffix, `--catalog` or `--folders` — so a mistyped
/// `--library` is an error instead of a new, empty catalog.
enum LibraryChoice {
    enum Kind {
        case catalog, folders, system
        /// A shared library: `postgres://…` (Linux).
        case shared
    }

    /// The `postgres://…` location given with `--library` or `$ALBUMKIT_LIBRARY`, if that is what was given.
    static func sharedLocation(_ arguments: Arguments) -> String? {
        #if os(Linux)
            let given = arguments.library ?? environment("ALBUMKIT_LIBRARY")
            if let given, PhotoLibrary.isSharedLibraryURL(given) { return given }
        #endif
        return nil
    }

    static func defaultCatalogURL() -> URL {
        let dataHome =
            environment("XDG_DATA_HOME").flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? (environment("HOME") ?? NSHomeDirectory()) + "/.local/share"
        return URL(fileURLWithPath: dataHome).appendingPathComponent("albumkit/Photos.albumlibrary")
    }

    /// One environment variable (`ProcessInfo.environment` copies all of them into a dictionary
    /// at every call: 0.15 ms of every command).
    private static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// The catalog library the arguments name, `nil` for the system or a folder library.
    static func catalogURL(_ arguments: Arguments) throws -> URL? {
        let (url, kind) = try resolve(arguments, create: false)
        return kind == .catalog ? url : nil
    }

    /// The library's location and kind, without opening it; `location` in place of `--library`
    /// and `$ALBUMKIT_LIBRARY` when given (`copy --from`, `--to`).
    static func resolve(_ arguments: Arguments, create: Bool, location: String? = nil) throws -> (
        url: URL?, kind: Kind
    ) {
        if location == nil && arguments.system { return (nil, .system) }
        if location.map(isShared) ?? (sharedLocation(arguments) != nil) { return (nil, .shared) }
        let given =
            location ?? arguments.library ?? environment("ALBUMKIT_LIBRARY").flatMap { $0.isEmpty ? nil : $0 }
        let url = given.map { URL(fileURLWithPath: $0) } ?? defaultCatalogURL()
        let path = url.path
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
        // A catalog library whose catalog was lost still has its journal: it stays a catalog library
        // (and is refused until `album repair`), never mistaken for a folder library.
        let hasCatalog = ["catalog.sqlite", "journal/saves.jsonl"].contains {
            FileManager.default.fileExists(atPath: url.appendingPathComponent($0).path)
        }
        let named = url.pathExtension == "albumlibrary"

        if exists && !isDirectory.boolValue {
            throw AlbumError(
                .libraryNotFound, "\(path) is a file, not a library (a library is a folder).", file: path)
        }
        if arguments.has(.folders) {
            if hasCatalog || named {
                throw AlbumError(
                    .libraryCorrupt,
                    "\(path) is a catalog library, not a folder library; leave out --folders.", file: path)
            }
            return (url, .folders)
        }
        if arguments.has(.catalog) {
            if exists && !hasCatalog && !named && !isEmptyDirectory(url) {
                throw AlbumError(
                    .libraryCorrupt,
                    "\(path) is a folder that holds files but no catalog; use it as a folder library (leave out --catalog) or choose a new path.",
                    file: path)
            }
            return (url, .catalog)
        }
        if hasCatalog || named { return (url, .catalog) }
        if exists { return (url, .folders) }
        if given == nil { return (url, .catalog) }  // the default library, created on first save
        guard create else {
            throw AlbumError(.libraryNotFound, "There is no library at \(path).", file: path)
        }
        throw AlbumError(
            .libraryNotFound,
            "There is no library at \(path). To create one there, add --catalog (AlbumKit's own library) or --folders (album folders), or use a path ending in .albumlibrary.",
            file: path)
    }

    /// Whether `location` is a `postgres://…` URL (Linux).
    private static func isShared(_ location: String) -> Bool {
        #if os(Linux)
            return PhotoLibrary.isSharedLibraryURL(location)
        #else
            return false
        #endif
    }

    /// Opens the chosen library (`location` in place of `--library` when given); `create` is false
    /// for commands that only read.
    static func open(_ arguments: Arguments, create: Bool, location: String? = nil) throws -> PhotoLibrary {
        let (url, kind) = try resolve(arguments, create: create, location: location)
        switch kind {
        case .system:
            return PhotoLibrary.system
        case .shared:
            #if os(Linux)
                return try PhotoLibrary.sharedCatalog(at: SharedCommands.url(location ?? sharedLocation(arguments)!))
            #else
                throw AlbumError(.libraryNotFound, "Shared (postgres://) libraries are available on Linux only.")
            #endif
        case .catalog:
            if create, url == defaultCatalogURL() {
                // The default library's folders are ours to make (`$XDG_DATA_HOME` is created on
                // demand, per the XDG spec); a path the user gave needs its parent to exist. When
                // this fails, opening names the missing folder.
                try? FileManager.default.createDirectory(
                    at: url!.deletingLastPathComponent(), withIntermediateDirectories: true,
                    attributes: [.posixPermissions: 0o700])
            }
            return try PhotoLibrary.catalog(at: url!, createIfMissing: create) { Output.err("album: note: " + $0) }
        case .folders:
            // Checked before the folder is made: a folder library needs SHA-256 even to list.
            try SHA256Hasher.requireAvailable(to: "open the folder library \(url!.path)")
            // Opened before the folder is made: a folder inside a catalog is refused untouched.
            let library = try PhotoLibrary.folders(at: url!)
            if create && !FileManager.default.fileExists(atPath: url!.path) {
                do {
                    try FileManager.default.createDirectory(
                        at: url!, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
                } catch {
                    throw AlbumError(
                        .libraryNotFound,
                        "Cannot create the folder library \(url!.path): its parent folder is missing or not writable.",
                        file: url!.path)
                }
            }
            return library
        }
    }

    private static func isEmptyDirectory(_ url: URL) -> Bool {
        // A folder that cannot be listed is not refused here; opening the library reports what it cannot read.
        ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).isEmpty
    }
}
