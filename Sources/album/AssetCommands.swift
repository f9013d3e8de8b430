import AlbumKit
import Foundation

/// `assets`, `add`, `remove`, `delete-asset`, `export` and `thumbnail`: assets by identifier, across albums.
enum AssetCommands {
    /// `album assets [--order added|taken] [--limit N] [--after CURSOR] [filters]`: the whole library,
    /// or what the filters (``AssetQuery``) keep of it.
    static func assets(_ arguments: Arguments) async throws -> Int32 {
        var table = try AssetTable(arguments)
        var query = try AssetQuery(arguments, defaultOrder: .dateAdded)
        let order = query.order
        var limit: Int?
        if let text = arguments.value(.limit) {
            guard let value = Int(text), value >= 1 else {
                throw AlbumCommand.UsageFailure(message: "--limit takes a number of assets, 1 or more, not '\(text)'")
            }
            limit = value
        }
        // The options are checked first: a usage error is one whether or not the library exists.
        let library = try LibraryChoice.open(arguments, create: false)
        try await query.resolveAlbum(in: library)
        // Printed page by page as the library is read: the first line at once, whatever its size.
        var listed = 0
        var cursor = arguments.value(.after)
        // The assets of the page's last time, printed with the next page (it may hold more of them).
        var held: [AssetInfo] = []
        repeat {
            let wanted = limit.map { min(500, $0 - listed) } ?? 500
            let page = try await library.assets(orderedBy: order, matching: query.filter, after: cursor, limit: wanted)
            listed += page.assets.count
            cursor = page.nextCursor
            let more = cursor != nil && listed < (limit ?? Int.max)
            // A page cut by --limit is printed whole: its cursor starts the next one.
            let (shown, rest) =
                more && limit == nil ? query.heldBack(held + page.assets, in: order) : (held + page.assets, [])
            held = rest
            table.add(query.sorted(shown, in: order), more: more)
        } while cursor != nil && listed < (limit ?? Int.max)
        if table.finish() == 0 && !arguments.json && !arguments.quiet {
            Output.out(query.filter == .all ? "No photos or videos." : "No photos or videos match.")
        }
        // A page cut short by --limit says where the next one starts.
        if let cursor, let limit {
            // The whole command again, so that it can be run as printed.
            var next = ["album", "assets"]
            if let library = arguments.library { next += ["--library", Output.shellQuoted(library)] }
            if arguments.system { next.append("--system") }
            if order == .captureDate { next += ["--order", "taken"] }
            for option: CommandLineSpec.OptionName in [.album, .from, .to, .camera, .kind, .near, .box, .name] {
                if let value = arguments.value(option) { next += [option.rawValue, Output.shellQuoted(value)] }
            }
            next += ["--limit", "\(limit)", "--after", Output.shellQuoted(cursor)]
            Output.err("next page: " + next.joined(separator: " "))
        }
        return 0
    }

    /// `album add TITLE ASSET_ID...`: existing assets into another album.
    static func add(_ arguments: Arguments) async throws -> Int32 {
        let library = try LibraryChoice.open(arguments, create: false)
        let album = AlbumReference(arguments.positional[0])
        let given = Array(arguments.positional.dropFirst())
        let albumID = try await album.id(in: library)
        var ids = given
        let inAlbum = try await AssetReference.resolving(
            given, in: library,
            attempt: {
                ids = $0
                return try await library.addAssets(withIDs: $0, toAlbumWithID: albumID)
            })
        return try await report(library, albumID: albumID, arguments) {
            "added \(ids.count) to \(album.shown)" + (inAlbum != ids ? " (as \(inAlbum.joined(separator: " ")))" : "")
        }
    }

    /// `album remove TITLE ASSET_ID...`: out of the album, kept in the library.
    static func remove(_ arguments: Arguments) async throws -> Int32 {
        let library = try LibraryChoice.open(arguments, create: false)
        let album = AlbumReference(arguments.positional[0])
        let given = Array(arguments.positional.dropFirst())
        let albumID = try await album.id(in: library)
        // Names and id prefixes are looked up among the album's own assets.
        try await AssetReference.resolving(
            given, in: library, album: albumID,
            attempt: { try await library.removeAssets(withIDs: $0, fromAlbumWithID: albumID) })
        return try await report(library, albumID: albumID, arguments) {
            "removed \(given.count) from \(album.shown); they stay in the library"
        }
    }

    /// Prints the album object after a change (`--json`) or a sentence.
    private static func report(
        _ library: PhotoLibrary, albumID: String, _ arguments: Arguments, _ sentence: () -> String
    ) async throws -> Int32 {
        if arguments.json {
            Output.json(AlbumLine(try await library.albumInfo(withID: albumID)))
        } else if !arguments.quiet {
            Output.out(sentence())
        }
        return 0
    }

    /// `album delete-asset ASSET_ID...`: out of the library and every album.
    static func deleteAsset(_ arguments: Arguments) async throws -> Int32 {
        let library = try LibraryChoice.open(arguments, create: false)
        let deleted = try await AssetReference.resolving(
            arguments.positional, in: library,
            attempt: { try await library.deleteAssets(withIDs: $0, permanently: arguments.permanently) })
        let kept = !arguments.permanently && deleted.allSatisfy { $0.trashURL == nil }
        if arguments.json {
            struct Line: Encodable {
                let id: String
                let deleted = true
                var trash: String?
                var restorableUntil: Date?
            }
            Output.json(deleted.map { Line(id: $0.id, trash: $0.trashURL?.path, restorableUntil: $0.restorableUntil) })
        } else if !arguments.quiet {
            for item in deleted {
                let until = item.restorableUntil.map {
                    " (in recently deleted until \(ISO8601DateFormatter().string(from: $0)): album restore \(item.id))"
                }
                let whereTo = item.trashURL.map { " (moved to the Trash: \($0.path))" } ?? until
                Output.out("deleted \(item.id)" + (whereTo ?? (kept ? " (kept in recently deleted)" : "")))
            }
            if kept && deleted.allSatisfy({ $0.restorableUntil == nil }) {
                Output.out("`album restore ID` brings them back; `album deleted` lists them.")
            }
        }
        return 0
    }

    /// `album thumbnail ASSET --output FILE [--size PIXELS]`: the asset's thumbnail into a new file.
    static func thumbnail(_ arguments: Arguments) async throws -> Int32 {
        guard let output = arguments.value(.output) else {
            throw AlbumCommand.UsageFailure(message: "thumbnail needs --output FILE, the new file to write")
        }
        var size = 256
        if let text = arguments.value(.size) {
            guard let pixels = Int(text), pixels >= 1 else {
                throw AlbumCommand.UsageFailure(message: "--size takes a number of pixels, 1 or more, not '\(text)'")
            }
            size = pixels
        }
        let library = try LibraryChoice.open(arguments, create: false)
        let (id, thumbnail) = try await AssetReference.resolving(
            arguments.positional, in: library,
            attempt: { ids in (ids[0], try await library.thumbnail(forAssetWithID: ids[0], maxPixelSize: size)) })
        guard let thumbnail else {
            throw AlbumError(
                .notSupported,
                "The library gives no picture of the asset \(id); nothing was written."
            )
        }
        try write(Array(thumbnail.data), toNewFile: output)
        if arguments.json {
            struct Line: Encodable {
                let asset: String
                let file: String
                let width: Int
                let height: Int
                let format: String
                let size: Int
                let embedded: Bool
            }
            Output.json(
                Line(
                    asset: id, file: output, width: thumbnail.pixelWidth, height: thumbnail.pixelHeight,
                    format: thumbnail.format.rawValue, size: thumbnail.data.count, embedded: thumbnail.isEmbedded))
        } else if !arguments.quiet {
            let origin = thumbnail.isEmbedded ? "the thumbnail stored in the file" : "rendered"
            Output.out(
                "wrote \(output): \(thumbnail.pixelWidth)x\(thumbnail.pixelHeight) \(thumbnail.format.rawValue), \(thumbnail.data.count) bytes (\(origin))"
            )
        }
        return 0
    }

    /// Writes `bytes` into `path`, a file that must not exist yet, and flushes it.
    static func write(_ bytes: [UInt8], toNewFile path: String) throws {
        let url = URL(fileURLWithPath: path)
        let name = url.lastPathComponent
        do throws(SystemError) {
            let folder = try FileSystem.openDirectory(url.deletingLastPathComponent().path)
            defer { FileSystem.close(folder) }
            try FileSystem.createFile(name, in: folder, bytes: bytes)
        } catch  where error.errno == EEXIST {
            throw AlbumError(
                .invalidArgument, "\(path) exists already; give --output a new file (nothing was overwritten).",
                file: path)
        } catch  where error.errno == ENOENT || error.errno == ENOTDIR {
            throw AlbumError(.fileNotFound, "Cannot write \(path): its folder does not exist.", file: path)
        } catch {
            throw AlbumError(
                .ioFailure, "Cannot write \(path): \(String(cString: strerror(error.errno))).", file: path,
                underlying: error)
        }
    }

    /// `album restore ID...` in a catalog library: recently deleted assets back into their albums.
    static func restoreAsset(_ arguments: Arguments) async throws -> Int32 {
        let library = try LibraryChoice.open(arguments, create: false)
        try await library.restoreAssets(withIDs: arguments.positional)
        if arguments.json {
            struct Line: Encodable {
                let id: String
                let restored = true
            }
            Output.json(arguments.positional.map { Line(id: $0) })
        } else if !arguments.quiet {
            for id in arguments.positional { Output.out("restored \(id)") }
        }
        return 0
    }

    /// `album purge ID...|--all` in a catalog library: recently deleted assets removed for good.
    static func purge(_ arguments: Arguments) async throws -> Int32 {
        guard arguments.has(.all) != !arguments.positional.isEmpty else {
            throw Arguments.UsageError(
                message: "purge takes the ids to remove for good (album deleted lists them), or --all")
        }
        let library = try LibraryChoice.open(arguments, create: false)
        let removed: Int
        if arguments.has(.all) {
            removed = try await library.emptyRecentlyDeleted(deletedBefore: Date.distantFuture)
        } else {
            removed = try await library.deleteAssets(withIDs: arguments.positional, permanently: true).count
        }
        if arguments.json {
            struct Line: Encodable { let removed: Int }
            Output.json(Line(removed: removed))
        } else if !arguments.quiet {
            Output.out("removed \(removed) asset(s) for good")
        }
        return 0
    }

    /// `album deleted [--empty [--days N]]`: the recently deleted assets, or emptying them.
    static func recentlyDeleted(_ arguments: Arguments) async throws -> Int32 {
        var days = 30
        if let text = arguments.value(.days) {
            guard arguments.has(.empty) else {
                throw AlbumCommand.UsageFailure(message: "--days goes with --empty")
            }
            guard let value = Int(text), value >= 0 else {
                throw AlbumCommand.UsageFailure(message: "--days takes a number of days, 0 or more, not '\(text)'")
            }
            days = value
        }
        let library = try LibraryChoice.open(arguments, create: false)
        if arguments.has(.empty) {
            // 0 days: everything, whatever times the deletions were recorded with.
            let removed = try await library.emptyRecentlyDeleted(
                deletedBefore: days == 0
                    ? Date.distantFuture : LibraryClock.now().addingTimeInterval(-Double(days) * 86_400))
            if arguments.json {
                struct Line: Encodable { let removed: Int }
                Output.json(Line(removed: removed))
            } else if !arguments.quiet {
                Output.out("removed \(removed) asset(s) deleted more than \(days) day(s) ago, for good")
            }
            return 0
        }
        let items = try await library.recentlyDeletedAssets()
        // When `album deleted --empty` (30 days by default) removes it for good.
        let removedAfter = { (item: RecentlyDeletedAsset) in item.deletedAt.addingTimeInterval(30 * 86_400) }
        if arguments.json {
            struct Line: Encodable {
                let id: String
                var originalFilename: String?
                let deletedAt: Date
                let removedAfter: Date
                let albums: [String]
                let file: String?
            }
            Output.json(
                items.map {
                    Line(
                        id: $0.asset.id, originalFilename: $0.asset.originalFilename, deletedAt: $0.deletedAt,
                        removedAfter: removedAfter($0), albums: $0.albumTitles, file: $0.asset.fileURL?.path)
                })
        } else if items.isEmpty {
            if !arguments.quiet { Output.out("Nothing in recently deleted.") }
        } else {
            let formatter = ISO8601DateFormatter()
            let minute = { (date: Date) in
                String(formatter.string(from: date).prefix(16)).replacingOccurrences(of: "T", with: " ")
            }
            Output.table(
                items.map { item in
                    [
                        Output.shown(item.asset.originalFilename ?? "-"), minute(item.deletedAt),
                        minute(removedAfter(item)), item.asset.id,
                        item.albumTitles.map(Output.shown).joined(separator: ", "),
                    ]
                }, header: ["NAME", "DELETED (UTC)", "EXPIRES (UTC)", "ID", "FROM ALBUMS"])
        }
        return 0
    }

    /// `album export TITLE DIR`: the album's originals, with their names and capture dates.
    static func export(_ arguments: Arguments) async throws -> Int32 {
        let library = try LibraryChoice.open(arguments, create: false)
        let album = AlbumReference(arguments.positional[0])
        let directory = URL(fileURLWithPath: arguments.positional[1])
        let draw = ProgressLine.drawer(enabled: Output.isTerminal && !arguments.quiet && !arguments.dryRun)
        if arguments.permanently, !arguments.has(.delete) {
            throw AlbumCommand.UsageFailure(message: "export --permanently goes with --delete (what it removes)")
        }
        let albumID = try await album.id(in: library)
        let namesBefore = ExportMirror.names(in: directory)
        let naming: (@Sendable (AssetInfo, Int) -> String)?
        if let text = arguments.value(.rename) {
            let template = try ExportNameTemplate(text)
            let count = try await library.assets(inAlbumWithID: albumID).count
            naming = { asset, number in template.name(for: asset, number: number, of: count) }
        } else {
            naming = nil
        }
        let report = try await library.exportAlbum(
            withID: albumID, to: directory, dryRun: arguments.dryRun, naming: naming
        ) { progress in
            draw(progress.completed, progress.total, progress.bytes, progress.totalBytes)
        }
        ProgressLine.shared.stop()
        let mirror = try ExportMirror(directory: directory, albumID: albumID).update(
            after: report, namesBefore: namesBefore, removing: arguments.has(.delete),
            permanently: arguments.permanently, dryRun: arguments.dryRun)
        for warning in mirror.warnings { Output.err("album: \(Output.shown(warning))") }
        for kept in mirror.kept {
            Output.err("album: kept \(Output.shown(kept.name)), no longer in the album: \(kept.reason)")
        }
        for failed in mirror.failed {
            Output.err("album: could not remove \(Output.shown(failed.name)): \(Output.shown(failed.reason))")
        }
        if !arguments.json {
            for removed in mirror.removed {
                if arguments.dryRun {
                    Output.out("would remove \(Output.shown(removed.name))")
                } else if let place = removed.trashPath {
                    Output.out("removed \(Output.shown(removed.name)) (to the Trash: \(Output.shown(place)))")
                } else {
                    Output.out("removed \(Output.shown(removed.name))")
                }
            }
        }
        if arguments.dryRun {
            struct DryLine: Encodable {
                var asset: String?
                let file: String
                var companions: [String]?
                var wouldExport: Bool?
                var alreadyThere: Bool?
                var wouldRemove: Bool?
            }
            for file in report.exported {
                let companions =
                    file.companions.isEmpty
                    ? "" : " (with " + file.companions.map(Output.shown).joined(separator: ", ") + ")"
                if arguments.json {
                    Output.json(
                        DryLine(
                            asset: file.assetID, file: file.name,
                            companions: file.companions.isEmpty ? nil : file.companions, wouldExport: true))
                } else {
                    Output.out(
                        "would export \(Output.shown(file.originalFilename ?? file.assetID)) as \(Output.shown(file.name))\(companions)"
                    )
                }
            }
            for file in report.alreadyThere {
                if arguments.json {
                    Output.json(DryLine(asset: file.assetID, file: file.name, alreadyThere: true))
                } else {
                    Output.out("already there: \(Output.shown(file.name))")
                }
            }
            if arguments.json {
                for removed in mirror.removed {
                    Output.json(DryLine(file: removed.name, wouldRemove: true))
                }
            }
            if !arguments.quiet {
                let removals = arguments.has(.delete) ? ", \(mirror.removed.count) would be removed" : ""
                Output.err(
                    "album: dry run, nothing written: \(report.exported.count) would be exported, \(report.alreadyThere.count) already there\(removals)"
                )
            }
            return 0
        }
        if arguments.json {
            struct File: Encodable {
                let asset: String
                let file: String
                var originalFile: String?
                let size: Int64
                var modified: Date?
            }
            struct Failure: Encodable {
                let asset: String
                let error: SaveLine.Failure
            }
            struct Line: Encodable {
                let alreadyThere: [File]
                let directory: String
                let exported: [File]
                let failed: [Failure]
                var removed: [String]?
            }
            func line(_ file: ExportReport.File) -> File {
                File(
                    asset: file.assetID, file: file.name, originalFile: file.originalFilename, size: file.byteSize,
                    modified: file.modificationDate)
            }
            Output.json(
                Line(
                    alreadyThere: report.alreadyThere.map(line),
                    directory: report.directory.path,
                    exported: report.exported.map(line),
                    failed: report.failures.map {
                        Failure(asset: $0.assetID, error: SaveLine.Failure(code: $0.code.rawValue, message: $0.message))
                    }, removed: arguments.has(.delete) ? mirror.removed.map(\.name) : nil))
        } else {
            if arguments.verbose {
                for file in report.exported { Output.out("exported \(Output.shown(file.name))") }
                for file in report.alreadyThere { Output.out("already there: \(Output.shown(file.name))") }
            }
            for failure in report.failures { Output.err("album: \(Output.shown(failure.message))") }
            if !arguments.quiet || !report.failures.isEmpty || !mirror.failed.isEmpty {
                let total = report.exported.count + report.alreadyThere.count + report.failures.count
                var summary = "exported \(report.exported.count) of \(total) to \(Output.shown(report.directory.path))"
                if !report.alreadyThere.isEmpty { summary += ", \(report.alreadyThere.count) already there" }
                if arguments.has(.delete) { summary += ", \(mirror.removed.count) removed" }
                if !mirror.kept.isEmpty { summary += ", \(mirror.kept.count) kept (see above)" }
                if !mirror.failed.isEmpty { summary += ", \(mirror.failed.count) not removed (see above)" }
                if !report.failures.isEmpty { summary += ", \(report.failures.count) failed" }
                Output.out(summary)
            }
        }
        return report.failures.isEmpty && mirror.failed.isEmpty ? 0 : 1
    }
}
