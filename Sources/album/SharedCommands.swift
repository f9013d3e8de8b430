import AlbumKit
import Foundation

/// `album init`, `config`, `gc`, `copy`, `deleted`, `restore` and `purge`: the commands of a shared
/// (postgres://) library.
enum SharedCommands {
    /// Whether the command's library is a shared one (`--to`, `--library` or `ALBUMKIT_LIBRARY`).
    static func targetsSharedLibrary(_ arguments: Arguments) -> Bool {
        #if os(Linux)
            let environment = ProcessInfo.processInfo.environment
            guard let target = arguments.value(.to) ?? arguments.library ?? environment["ALBUMKIT_LIBRARY"] else {
                return false
            }
            return PhotoLibrary.isSharedLibraryURL(target)
        #else
            return false  // shared libraries are available on Linux only
        #endif
    }

    #if os(Linux)
        /// The shared library `command` works on; a usage error when the arguments name another kind.
        private static func target(of command: CommandLineSpec.CommandName, _ arguments: Arguments) throws -> URL {
            let environment = ProcessInfo.processInfo.environment
            let target = arguments.value(.to) ?? arguments.library ?? environment["ALBUMKIT_LIBRARY"]
            guard let target, PhotoLibrary.isSharedLibraryURL(target) else {
                throw Arguments.UsageError(
                    message: "\(command) works on a shared library: give --library postgres://USER@HOST/DATABASE")
            }
            return try url(target)
        }

        /// `location`, a `postgres://` URL the user gave, as a URL.
        ///
        /// - Throws: `.invalidArgument` naming it when it is no URL (a space, a stray `%`).
        static func url(_ location: String) throws -> URL {
            guard let url = URL(string: location) else {
                throw AlbumError(
                    .invalidArgument,
                    "\(location) is not a valid URL; give postgres://USER@HOST[:PORT]/DATABASE (percent-encode special characters)."
                )
            }
            return url
        }

        static func collectGarbage(_ arguments: Arguments) async throws -> Int32 {
            let report = try await PhotoLibrary.sharedCatalog(at: target(of: .gc, arguments)).collectGarbage()
            print(report, arguments)
            return 0
        }

        static func restore(_ arguments: Arguments) async throws -> Int32 {
            let target = try target(of: .restore, arguments)
            let restored = try await PhotoLibrary.sharedCatalog(at: target).restoreDeleted(
                withIDs: arguments.positional)
            if arguments.json {
                Output.json(restored.map(DeletedLine.init))
            } else if !arguments.quiet {
                for item in restored {
                    let into =
                        item.albums.isEmpty
                        ? "" : " into " + item.albums.map { "\"\($0)\"" }.joined(separator: ", ")
                    Output.out(Output.shown("restored \(item.kind.rawValue) \(item.name ?? item.id)\(into)"))
                }
            }
            return 0
        }

        static func purge(_ arguments: Arguments) async throws -> Int32 {
            let target = try target(of: .purge, arguments)
            guard arguments.has(.all) != !arguments.positional.isEmpty else {
                throw Arguments.UsageError(
                    message: "purge takes the ids to remove for good (album deleted lists them), or --all")
            }
            let library = try PhotoLibrary.sharedCatalog(at: target)
            let report =
                arguments.has(.all)
                ? try await library.emptyRecentlyDeleted()
                : try await library.removeDeletedPermanently(withIDs: arguments.positional)
            print(report, arguments)
            return 0
        }

        static func copy(_ arguments: Arguments) async throws -> Int32 {
            guard let source = arguments.value(.from) else {
                throw Arguments.UsageError(message: "copy needs --from LIBRARY (a path or postgres://...)")
            }
            let report: CopyReport
            let from = try LibraryChoice.resolve(arguments, create: false, location: source)
            let to = try LibraryChoice.resolve(arguments, create: true, location: arguments.value(.to))
            if from.kind == .catalog, to.kind == .shared, let catalog = from.url {
                // Into a shared library, a catalog keeps its ids, dates added and album order.
                let target = try LibraryChoice.open(arguments, create: false, location: arguments.value(.to))
                report = try await target.copy(fromCatalogAt: catalog)
            } else {
                let target = try LibraryChoice.open(arguments, create: true, location: arguments.value(.to))
                report = try await LibraryChoice.open(arguments, create: false, location: source).copy(into: target)
            }
            if arguments.json {
                struct Line: Encodable {
                    let copiedAssets: Int
                    let existingAssets: Int
                    let albums: Int
                    let memberships: Int
                    let failures: [Failure]
                }
                struct Failure: Encodable {
                    let asset: String
                    let code: String
                    let message: String
                }
                Output.json(
                    Line(
                        copiedAssets: report.copiedAssets, existingAssets: report.existingAssets,
                        albums: report.albums, memberships: report.memberships,
                        failures: report.failures.map {
                            Failure(asset: $0.assetID, code: $0.code.rawValue, message: $0.message)
                        }))
            } else {
                for failure in report.failures { Output.err("album: " + failure.message) }
                if arguments.quiet {
                } else if report.copiedNothing && report.failures.isEmpty {
                    Output.out("nothing to copy: all \(report.existingAssets) assets and every album are already there")
                } else {
                    Output.out(
                        "copied \(report.copiedAssets) assets (\(report.existingAssets) already there), \(report.albums) albums, \(report.memberships) memberships"
                            + (report.failures.isEmpty
                                ? "" : "; \(report.failures.count) failed (run it again to retry them)"))
                }
            }
            return report.failures.isEmpty ? 0 : 1
        }

        static func initialize(_ arguments: Arguments) async throws -> Int32 {
            let target = try target(of: .initialize, arguments)
            let roles = arguments.has(.printRoles) || arguments.has(.createRoles)
            let library: PhotoLibrary
            var store: ObjectStoreLocation?
            if let endpoint = arguments.value(.endpoint), let bucket = arguments.value(.bucket) {
                let location = ObjectStoreLocation(
                    endpoint: endpoint, bucket: bucket, prefix: arguments.value(.prefix) ?? "",
                    region: arguments.value(.region) ?? "us-east-1", addressing: try addressing(arguments) ?? .path)
                library = try PhotoLibrary.initializeShared(at: target, store: location)
                store = location
            } else if roles {
                library = try PhotoLibrary.sharedCatalog(at: target)
            } else {
                throw Arguments.UsageError(message: "init needs --endpoint URL and --bucket NAME")
            }
            if roles {
                let members =
                    arguments.has(.createRoles)
                    ? try await library.createMemberRoles() : try await library.memberRoles()
                if arguments.json {
                    struct Line: Encodable {
                        let reader: String
                        let writer: String
                        let sql: String
                        let created: Bool
                    }
                    Output.json(
                        Line(
                            reader: members.reader, writer: members.writer, sql: members.sql,
                            created: arguments.has(.createRoles)))
                } else if arguments.has(.createRoles) {
                    if !arguments.quiet {
                        Output.out(
                            "roles ready: \(members.reader) (read-only), \(members.writer); add a member with CREATE ROLE NAME LOGIN IN ROLE \(members.reader)"
                        )
                    }
                } else {
                    Output.out(members.sql)
                    Output.out(
                        "-- A member: CREATE ROLE anna LOGIN PASSWORD '...' IN ROLE \(members.reader);  (or \(members.writer))"
                    )
                }
                return 0
            }
            guard let store else { return 0 }  // set up above: the roles need a library
            if arguments.json {
                Output.json(SettingsLine(store: store, retentionDays: nil, library: target.absoluteString))
            } else if !arguments.quiet {
                Output.out(
                    "shared library ready: \(target.absoluteString), originals in \(store.endpoint)/\(store.bucket)/\(store.prefix)"
                )
            }
            return 0
        }

        static func config(_ arguments: Arguments) async throws -> Int32 {
            let target = try target(of: .config, arguments)
            var retention: Int?
            if let text = arguments.value(.retentionDays) {
                guard let days = Int(text) else {
                    throw Arguments.UsageError(message: "--retention-days takes a number of days, not '\(text)'")
                }
                retention = days
            }
            let library = try PhotoLibrary.sharedCatalog(at: target)
            let settings = try await library.changeSharedSettings(
                endpoint: arguments.value(.endpoint), region: arguments.value(.region),
                addressing: try addressing(arguments), retentionDays: retention)
            if arguments.json {
                Output.json(
                    SettingsLine(
                        store: settings.store, retentionDays: settings.retentionDays, library: target.absoluteString))
            } else if !arguments.quiet {
                let store = settings.store
                Output.table(
                    [
                        ["library", target.absoluteString], ["endpoint", store.endpoint], ["bucket", store.bucket],
                        ["prefix", store.prefix.isEmpty ? "(none)" : store.prefix], ["region", store.region],
                        ["addressing", store.addressing.rawValue],
                        ["retention", "\(settings.retentionDays) days"],
                    ], header: ["SETTING", "VALUE"])
            }
            return 0
        }

        private static func addressing(_ arguments: Arguments) throws -> ObjectStoreAddressing? {
            guard let text = arguments.value(.addressing) else { return nil }
            guard let addressing = ObjectStoreAddressing(rawValue: text) else {
                throw Arguments.UsageError(message: "--addressing takes 'path' or 'virtual', not '\(text)'")
            }
            return addressing
        }

        static func deleted(_ arguments: Arguments) async throws -> Int32 {
            let items = try await PhotoLibrary.sharedCatalog(at: target(of: .deleted, arguments)).recentlyDeleted()
            if arguments.json {
                Output.json(items.map(DeletedLine.init))
            } else if items.isEmpty {
                if !arguments.quiet { Output.out("Nothing in recently deleted.") }
            } else {
                let dates = ISO8601DateFormatter()
                let day = { (date: Date) in
                    String(dates.string(from: date).prefix(16)).replacingOccurrences(of: "T", with: " ")
                }
                Output.table(
                    items.map { item in
                        [
                            item.kind.rawValue, item.name ?? "-", day(item.deletedAt), day(item.removedAfter), item.id,
                            item.kind == .album
                                ? "\(item.count ?? 0) photo(s) or video(s)" : item.albums.joined(separator: ", "),
                        ]
                    }, header: ["KIND", "NAME", "DELETED", "REMOVED AFTER", "ID", "ALBUMS"])
            }
            return 0
        }

        private static func print(_ report: GarbageReport, _ arguments: Arguments) {
            if arguments.json {
                struct Line: Encodable {
                    let removedObjects: Int
                    let freedBytes: UInt64
                    let abandonedUploads: Int
                    let removedAssets: Int
                    let removedAlbums: Int
                    let removedThumbnails: Int
                }
                Output.json(
                    Line(
                        removedObjects: report.removedObjects, freedBytes: report.freedBytes,
                        abandonedUploads: report.abandonedUploads, removedAssets: report.removedAssets,
                        removedAlbums: report.removedAlbums, removedThumbnails: report.removedDerivatives))
            } else if !arguments.quiet {
                Output.out(
                    "removed \(report.removedAssets) photo(s) or video(s) and \(report.removedAlbums) album(s) from recently deleted, \(report.removedObjects) objects (\(report.freedBytes) bytes), \(report.abandonedUploads) abandoned uploads and \(report.removedDerivatives) thumbnails or previews"
                )
            }
        }

        /// `config` and `init` with `--json`.
        private struct SettingsLine: Encodable {
            let endpoint: String
            let bucket: String
            let prefix: String
            let region: String
            let addressing: String
            let retentionDays: Int?
            let library: String

            init(store: ObjectStoreLocation, retentionDays: Int?, library: String) {
                endpoint = store.endpoint
                bucket = store.bucket
                prefix = store.prefix
                region = store.region
                addressing = store.addressing.rawValue
                self.retentionDays = retentionDays
                self.library = library
            }
        }

        /// One entry of recently deleted, for `deleted` and `restore` with `--json`.
        private struct DeletedLine: Encodable {
            let kind: String
            let id: String
            let name: String?
            let deleted: Date
            let removedAfter: Date
            let size: Int64?
            let albums: [String]?
            let count: Int?

            init(_ item: RecentlyDeletedItem) {
                kind = item.kind.rawValue
                id = item.id
                name = item.name
                deleted = item.deletedAt
                removedAfter = item.removedAfter
                size = item.byteSize
                albums = item.kind == .asset ? item.albums : nil
                count = item.count
            }
        }
    #endif
}
