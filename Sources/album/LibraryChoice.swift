import AlbumKit
import Foundation

/// Which library a command works on: `--system`, `--library PATH`, `$ALBUMKIT_LIBRARY`, or the
/// default catalog under `$XDG_DATA_HOME/albumkit/`.
enum LibraryChoice {
    static func defaultCatalogURL(environment: [String: String]) -> URL {
        let dataHome =
            environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share"
        return URL(fileURLWithPath: dataHome).appendingPathComponent("albumkit/Photos.albumlibrary")
    }

    /// Opens the chosen library; `create` is false for read-only commands.
    static func open(_ arguments: Arguments, create: Bool) throws -> PhotoLibrary {
        let environment = ProcessInfo.processInfo.environment
        if arguments.system { return PhotoLibrary.system }
        #if os(Linux)
            if let location = arguments.library ?? environment["ALBUMKIT_LIBRARY"],
                PhotoLibrary.isSharedLibraryURL(location)
            {
                return try PhotoLibrary.shared(location)
            }
        #endif
        let url =
            (arguments.library ?? environment["ALBUMKIT_LIBRARY"]).map { URL(fileURLWithPath: $0) }
            ?? defaultCatalogURL(environment: environment)
        if isFolderLibrary(url) { return try PhotoLibrary.folders(at: url) }
        return try PhotoLibrary.catalog(at: url, createIfMissing: create)
    }

    /// A folder library is an existing directory that is not a catalog and not named `.albumlibrary`.
    static func isFolderLibrary(_ url: URL) -> Bool {
        var isDirectory: ObjCBool = false
        guard url.pathExtension != "albumlibrary",
            FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue
        else { return false }
        return !FileManager.default.fileExists(atPath: url.appendingPathComponent("catalog.sqlite").path)
    }
}
