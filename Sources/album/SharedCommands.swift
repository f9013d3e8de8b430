import AlbumKit
import Foundation

/// `album init`, `album gc` and `album copy`: the commands of a shared (postgres://) library.
enum SharedCommands {
    static func run(_ command: String, _ arguments: Arguments) async throws -> Int32 {
        #if os(Linux)
            let environment = ProcessInfo.processInfo.environment
            let target = arguments.value("--to") ?? arguments.library ?? environment["ALBUMKIT_LIBRARY"]
            guard let target, PhotoLibrary.isSharedLibraryURL(target) else {
                throw Arguments.UsageError(
                    message: "\(command) works on a shared library: give --library postgres://USER@HOST/DATABASE")
            }
            switch command {
            case "init":
                guard let endpoint = arguments.value("--endpoint"), let bucket = arguments.value("--bucket") else {
                    throw Arguments.UsageError(message: "init needs --endpoint URL and --bucket NAME")
                }
                let store = ObjectStoreLocation(
                    endpoint: endpoint, bucket: bucket, prefix: arguments.value("--prefix") ?? "",
                    region: arguments.value("--region") ?? "us-east-1")
                try PhotoLibrary.initializeShared(target, store: store)
                Output.out("shared library ready: \(target), originals in \(endpoint)/\(bucket)/\(store.prefix)")
                return 0
            case "gc":
                let report = try await PhotoLibrary.shared(target).collectGarbage()
                Output.out(
                    "removed \(report.removedObjects) objects (\(report.freedBytes) bytes) and \(report.abandonedUploads) abandoned uploads"
                )
                return 0
            default:
                guard let source = arguments.value("--from") else {
                    throw Arguments.UsageError(message: "copy needs --from L.albumlibrary")
                }
                let report = try await PhotoLibrary.shared(target).copy(
                    fromCatalogAt: URL(fileURLWithPath: source))
                Output.out(
                    "copied \(report.copiedAssets) assets (\(report.existingAssets) already there), \(report.albums) albums, \(report.memberships) memberships"
                )
                return 0
            }
        #else
            throw AlbumError(.libraryNotFound, "Shared (postgres://) libraries are available on Linux only.")
        #endif
    }
}
