import AlbumKit
import Foundation

/// Dispatches `album COMMAND` and turns every failure into a message on stderr and an exit status:
/// 0 success, 1 something asked failed, 2 usage error, 130 interrupted.
enum AlbumCommand {
    static func run(_ argv: [String]) async -> Int32 {
        await run(argv.map { Array($0.utf8) })
    }

    /// Runs with the arguments' bytes as the system gave them (file names need not be UTF-8).
    static func run(_ argv: [[UInt8]]) async -> Int32 {
        switch invocation(argv) {
        case .finished(let status): return status
        case .command(let command, let arguments): return await run(command, arguments)
        }
    }

    /// What the arguments ask, decided without starting any concurrency: usage errors, `--help` and
    /// `--version` finish here, so they print without the thread pool (process start is measured).
    enum Invocation {
        case finished(Int32)
        case command(CommandLineSpec.Command, Arguments)
    }

    static func invocation(_ argv: [[UInt8]]) -> Invocation {
        assert(CommandLineSpec.isComplete, "an option or command of CommandLineSpec has no entry, or two")
        // Whether a usage error is also printed as JSON: `--json` among the options (before `--`).
        let json = argv.prefix { $0 != Array("--".utf8) }.contains(Array(CommandLineSpec.OptionName.json.rawValue.utf8))
        let arguments: Arguments
        do { arguments = try Arguments(raw: argv) } catch {
            return .finished(usageError(error.message, hint: "Run `album --help` for usage.", json: json))
        }
        if arguments.version {
            Output.out("album \(CommandLineSpec.version)")
            return .finished(0)
        }
        guard let command = arguments.command else {
            if arguments.help {
                Output.out(Help.overview)
                return .finished(0)
            }
            if json {
                return .finished(
                    usageError("no command given", hint: "Run `album --help` for the commands.", json: true))
            }
            Output.err(Help.overview)
            return .finished(2)
        }
        guard let spec = CommandLineSpec.command(command) else {
            return .finished(unknownCommand(command, json: json))
        }
        if arguments.help {
            Output.out(Help.text(for: command) ?? Help.overview)
            return .finished(0)
        }
        return .command(spec, arguments)
    }

    /// Runs `spec`'s command (its arguments already parsed) and turns every failure into a message
    /// and a status.
    static func run(_ spec: CommandLineSpec.Command, _ arguments: Arguments) async -> Int32 {
        let command = spec.name
        do {
            try arguments.check(for: spec)
            // Read where the shared library's store options are read, as AWS_CA_BUNDLE is.
            if let bundle = arguments.value(.caBundle) {
                var configuration = LibraryConfiguration.current
                configuration.environment["ALBUMKIT_S3_CA_BUNDLE"] = bundle
                LibraryConfiguration.use(configuration)
            }
            if let title = arguments.album { try arguments.checkTitle(title) }
            if [.show, .create, .rename, .delete].contains(command) {
                for title in arguments.positional { try arguments.checkTitle(title) }
            }
            switch command {
            case .save: return try await SaveCommand.run(arguments, importing: false)
            case .import where arguments.value(.watch) != nil: return try await WatchedImport.run(arguments)
            case .import: return try await SaveCommand.run(arguments, importing: true)
            case .albums: return try await albums(arguments)
            case .show: return try await show(arguments)
            case .create: return try await create(arguments)
            case .rename: return try await rename(arguments)
            case .delete: return try await delete(arguments)
            case .verify: return try await verify(arguments)
            case .watch: return try await LibraryWatch.watch(arguments)
            case .access: return try await LibraryWatch.access(arguments)
            #if os(Linux)
                case .serve: return try await ServeCommand.run(arguments)
            #else
                case .serve: throw AlbumError(.notSupported, "album serve is available on Linux only.")
            #endif
            case .share: return try await ShareCommands.share(arguments)
            case .shares: return try await ShareCommands.list(arguments)
            case .unshare: return try await ShareCommands.unshare(arguments)
            // Recently deleted: a shared library's (photos and albums) or a catalog library's.
            case .deleted where !SharedCommands.targetsSharedLibrary(arguments):
                return try await AssetCommands.recentlyDeleted(arguments)
            case .restore where !SharedCommands.targetsSharedLibrary(arguments):
                return try await AssetCommands.restoreAsset(arguments)
            case .purge where !SharedCommands.targetsSharedLibrary(arguments):
                return try await AssetCommands.purge(arguments)
            #if os(Linux)
                case .deleted: return try await SharedCommands.deleted(arguments)
                case .restore: return try await SharedCommands.restore(arguments)
                case .purge: return try await SharedCommands.purge(arguments)
                case .initialize: return try await SharedCommands.initialize(arguments)
                case .config: return try await SharedCommands.config(arguments)
                case .gc: return try await SharedCommands.collectGarbage(arguments)
                case .copy: return try await SharedCommands.copy(arguments)
            #else
                case .deleted, .restore, .purge, .initialize, .config, .gc, .copy:
                    throw AlbumError(.libraryNotFound, "Shared (postgres://) libraries are available on Linux only.")
            #endif
            case .assets: return try await AssetCommands.assets(arguments)
            case .add: return try await AssetCommands.add(arguments)
            case .remove: return try await AssetCommands.remove(arguments)
            case .deleteAsset: return try await AssetCommands.deleteAsset(arguments)
            case .export: return try await AssetCommands.export(arguments)
            case .thumbnail: return try await AssetCommands.thumbnail(arguments)
            case .previews: return try await PreviewCommand.previews(arguments)
            case .contactSheet: return try await PreviewCommand.contactSheet(arguments)
            case .duplicates: return try await DuplicateCommand.run(arguments)
            case .repair: return try await repair(arguments)
            case .completions: return try completions(arguments)
            case .man:
                Output.out(ShellSupport.manPage, terminator: "")
                return 0
            case .help:
                guard let topic = arguments.positional.first else {
                    Output.out(Help.overview)
                    return 0
                }
                guard let text = Help.text(for: topic) else { return unknownCommand(topic, json: arguments.json) }
                Output.out(text)
                return 0
            }
        } catch let error as Arguments.UsageError {
            return usageError(
                error.message, command: command, hint: "Run `album \(command) --help` for usage.", json: arguments.json)
        } catch let error as UsageFailure {
            return usageError(
                error.message, command: command, hint: "Run `album \(command) --help` for usage.", json: arguments.json)
        } catch {
            let error = AlbumError.wrap(error)
            report(error, suggestion: await suggestion(for: error, arguments), json: arguments.json)
            return 1
        }
    }

    /// A usage error (exit status 2): on stderr with `hint`, and with `--json` also as
    /// `{"error": {"code": "usage", "message": …}}` on stdout, so a script reading JSON sees it.
    static func usageError(
        _ message: String, command: CommandLineSpec.CommandName? = nil, hint: String, json: Bool
    ) -> Int32 {
        if json { Output.json(["error": SaveLine.Failure(code: "usage", message: message)]) }
        Output.err("album\(command.map { " " + $0.rawValue } ?? ""): \(message)\n\(hint)")
        return 2
    }

    private static func unknownCommand(_ command: String, json: Bool) -> Int32 {
        var message = "unknown command '\(command)'"
        if let near = Suggestion.closest(to: command, among: CommandLineSpec.commands.map(\.name.rawValue)) {
            message += ". Did you mean '\(near)'?"
        }
        return usageError(message, hint: "Run `album --help` for the commands.", json: json)
    }

    /// A failed command's error: on stderr, and as `{"error": …}` on stdout with `--json`.
    private static func report(_ error: AlbumError, suggestion: String? = nil, json: Bool) {
        if json {
            var failure = SaveLine.Failure(error)
            failure.suggestion = suggestion
            Output.json(["error": failure])
        }
        Output.err(
            "album: \(Output.shown(error.message))"
                + (suggestion.map { " Did you mean \"\(Output.shown($0))\"?" } ?? ""))
    }

    /// The fewest open files (`ulimit -n`) a command that opens a library runs with. Below it, the
    /// command's own files can take every descriptor at the moment libdispatch, which runs its
    /// threads, needs one (an `eventfd` as the main thread hands over, `/proc/self/task/*/stat`
    /// for its thread pool): libdispatch then stops the process (`SIGILL`, about 1 save in 8 at
    /// `ulimit -n 7`, measured). A save into a new catalog needs more anyway: refused midway at 16,
    /// saved from 18.
    static let minimumOpenFiles = 16

    /// Exit status 1, with the error reported, when `command` opens a library and the open-file
    /// limit is below ``minimumOpenFiles``; `nil` otherwise. Called before the command's first
    /// suspension (main.swift): once work hops between threads, libdispatch itself needs
    /// descriptors, and under `ulimit -n 7` even a refusal made there was stopped in 1 run in 4.
    static func openFileLimitRefusal(_ command: CommandLineSpec.CommandName, _ arguments: Arguments) -> Int32? {
        guard ![.completions, .man, .help].contains(command), let limit = FileSystem.openFileLimit,
            limit < minimumOpenFiles
        else { return nil }
        let error = AlbumError(
            .ioFailure,
            "At most \(limit) files may be open (`ulimit -n`), too few to run safely: raise `ulimit -n` to \(minimumOpenFiles) or more. Nothing was changed."
        )
        report(error, json: arguments.json)
        return 1
    }

    struct UsageFailure: Error {
        let message: String
    }

    /// For an album that was not found: the closest existing title (case, accents, a typo).
    private static func suggestion(for error: AlbumError, _ arguments: Arguments) async -> String? {
        guard error.code == .albumNotFound, let title = error.albumTitle,
            // Only a hint added to an error already reported: no hint when the titles cannot be read.
            let library = try? LibraryChoice.open(arguments, create: false),
            let albums = try? await library.albums()
        else { return nil }
        return Suggestion.closest(to: title, among: albums.map(\.title))
    }

    // MARK: listing

    static func albums(_ arguments: Arguments) async throws -> Int32 {
        if arguments.has(.titles) {
            // Titles only, without counting each album's photos (shell completion asks for them).
            let titles = try await LibraryChoice.open(arguments, create: false).albumTitles()
            if arguments.json {
                Output.json(titles)
            } else {
                for title in titles { Output.out(Output.shown(title)) }
            }
            return 0
        }
        let library = try LibraryChoice.open(arguments, create: false)
        let albums = try await library.albums()
        let summaries = Dictionary(
            try await library.albumSummaries().map { ($0.albumID, $0) }, uniquingKeysWith: { first, _ in first })
        if arguments.json {
            Output.json(
                albums.map { album in
                    var line = AlbumLine(album)
                    if let summary = summaries[album.id] {
                        line.size = summary.byteSize
                        line.firstTaken = summary.firstTaken
                        line.lastTaken = summary.lastTaken
                    }
                    return line
                })
        } else if albums.isEmpty {
            if !arguments.quiet { Output.out("No albums.") }
        } else {
            // The days its photos were taken, as the camera's clock showed them.
            func taken(_ summary: AlbumSummary?) -> String {
                guard let first = summary?.firstTaken?.prefix(10), let last = summary?.lastTaken?.prefix(10) else {
                    return ""
                }
                return first == last ? String(first) : "\(first) – \(last)"
            }
            Output.table(
                albums.map { album in
                    let summary = summaries[album.id]
                    return [
                        album.id, String(album.count), summary.map { Output.size($0.byteSize) } ?? "", taken(summary),
                        album.title,
                    ]
                }, header: ["ID", "COUNT", "SIZE", "TAKEN", "TITLE"], rightAligned: [1, 2])
        }
        return 0
    }

    /// `album show TITLE [--order added|taken] [filters]`: the album in its own order (as its assets
    /// were added), or by when they were taken; what the filters (``AssetQuery``) keep of it.
    static func show(_ arguments: Arguments) async throws -> Int32 {
        var table = try AssetTable(arguments)
        let query = try AssetQuery(arguments, defaultOrder: .dateAdded)
        let album = AlbumReference(arguments.positional[0])
        let library = try LibraryChoice.open(arguments, create: false)
        let id: String
        switch album {
        case .title(let title): id = try await library.albumInfo(titled: title).id
        case .id(let given): id = given
        }
        // Printed page by page as the album is read: the first line at once, whatever its size.
        var cursor: String?
        // By date taken, the whole album is read before the first line (it is sorted).
        var taken: [AssetInfo] = []
        repeat {
            let page = try await library.assets(inAlbumWithID: id, after: cursor, limit: 500)
            cursor = page.nextCursor
            let kept = page.assets.filter { query.filter.matches($0, in: .captureDate) }
            if query.order == .captureDate {
                taken += kept
            } else {
                table.add(kept, more: cursor != nil)
            }
        } while cursor != nil
        if query.order == .captureDate { table.add(query.sorted(taken, in: .captureDate), more: false) }
        if table.finish() == 0 && !arguments.json {
            Output.out(
                query.filter == .all
                    ? "The album \(album.shown) is empty." : "Nothing in the album \(album.shown) matches.")
        }
        return 0
    }

    // MARK: changing albums

    static func create(_ arguments: Arguments) async throws -> Int32 {
        let info = try await LibraryChoice.open(arguments, create: true).createAlbum(titled: arguments.positional[0])
        if arguments.json {
            Output.json(AlbumLine(info))
        } else if !arguments.quiet {
            Output.out(Output.shown("album \"\(info.title)\" \(info.id)"))
        }
        return 0
    }

    static func rename(_ arguments: Arguments) async throws -> Int32 {
        let (old, new) = (arguments.positional[0], arguments.positional[1])
        let library = try LibraryChoice.open(arguments, create: false)
        let reference = AlbumReference(old)
        // The album looked up once (by its title as saves resolve it, or by its id), then renamed by id.
        let before: AlbumInfo
        switch reference {
        case .title(let title): before = try await library.albumInfo(titled: title)
        case .id(let id): before = try await library.albumInfo(withID: id)
        }
        try await library.renameAlbum(withID: before.id, to: new)
        if arguments.json {
            var line = AlbumLine(try await library.albumInfo(withID: before.id))
            line.previousTitle = before.title
            Output.json(line)
        } else if !arguments.quiet {
            Output.out(Output.shown("renamed \"\(old)\" to \"\(new)\""))
        }
        return 0
    }

    static func delete(_ arguments: Arguments) async throws -> Int32 {
        let title = arguments.positional[0]
        let library = try LibraryChoice.open(arguments, create: false)
        // The album looked up once (by its title as saves resolve it, or by its id), then deleted by id.
        let before: AlbumInfo
        switch AlbumReference(title) {
        case .title(let title): before = try await library.albumInfo(titled: title)
        case .id(let id): before = try await library.albumInfo(withID: id)
        }
        let deleted = try await library.deleteAlbum(
            withID: before.id, force: arguments.force, permanently: arguments.permanently)
        if arguments.json {
            var line = AlbumLine(before)
            line.deleted = true
            line.trash = deleted.trashURL?.path
            line.albums = deleted.albums.count > 1 ? deleted.albums.dropFirst().map { AlbumLine($0) } : nil
            Output.json(line)
        } else if !arguments.quiet {
            if let trash = deleted.trashURL {
                Output.out(Output.shown("moved album \"\(deleted.title)\" to the Trash: \(trash.path)"))
            } else if LibraryChoice.sharedLocation(arguments) != nil {
                Output.out(
                    Output.shown(
                        "moved album \"\(deleted.title)\" to recently deleted (album restore \(deleted.id) brings it back)"
                    ))
            } else {
                Output.out(Output.shown("deleted album \"\(deleted.title)\""))
            }
            // The albums inside it went with it: said after the line that says where it went.
            for album in deleted.albums.dropFirst() {
                let items = album.count == 1 ? "1 photo or video" : "\(album.count) photos or videos"
                Output.out(Output.shown("  with album \"\(album.title)\" (\(items))"))
            }
        }
        return 0
    }

    /// Draws verify's and repair's progress (files and bytes read) on a terminal, not with `-q`.
    static func checkingProgress(_ arguments: Arguments) -> @Sendable (VerificationProgress) -> Void {
        let draw = ProgressLine.drawer(enabled: Output.isTerminal && !arguments.quiet)
        return { draw($0.completed, $0.total, $0.bytes, $0.totalBytes) }
    }

    static func verify(_ arguments: Arguments) async throws -> Int32 {
        let report = try await LibraryChoice.open(arguments, create: false).verify(
            arguments.has(.thorough) ? .thorough : .standard, progress: checkingProgress(arguments))
        ProgressLine.shared.stop()
        if arguments.json {
            struct Line: Encodable {
                let checked: Int
                let healthy: Bool
                let problems: [String]
            }
            Output.json(Line(checked: report.checkedAssets, healthy: report.isHealthy, problems: report.problems))
        } else if report.isHealthy {
            if !arguments.quiet { Output.out("ok: \(report.checkedAssets) assets verified") }
        } else {
            for problem in report.problems { Output.out("problem: \(Output.shown(problem))") }
            Output.out("\(report.problems.count) problems in \(report.checkedAssets) assets")
        }
        return report.isHealthy ? 0 : 1
    }

    static func repair(_ arguments: Arguments) async throws -> Int32 {
        guard let url = try LibraryChoice.catalogURL(arguments) else {
            throw UsageFailure(message: "repair works on a catalog library (NAME.albumlibrary)")
        }
        let report = try await PhotoLibrary.repair(catalogAt: url, progress: checkingProgress(arguments))
        ProgressLine.shared.stop()
        if arguments.json {
            struct Line: Encodable {
                let healthy: Bool
                let assets: Int
                let albums: Int
                let sources: [String: Int]
                let notRestored: [String]
                let damagedCatalog: String?
                let journalRecordsAdded: Int?
            }
            Output.json(
                Line(
                    healthy: report.wasHealthy, assets: report.restoredAssets, albums: report.restoredAlbums,
                    sources: report.sources, notRestored: report.notRestored,
                    damagedCatalog: report.damagedCatalogKeptAt,
                    journalRecordsAdded: report.journalRecordsAdded > 0 ? report.journalRecordsAdded : nil))
        } else {
            let sources = report.sources.sorted { $0.key < $1.key }.map { "\($0.value) from the \($0.key)" }
            if report.wasHealthy {
                Output.out(
                    "The catalog was healthy: \(report.restoredAssets) assets, \(report.restoredAlbums) albums"
                        + (sources.isEmpty ? "." : "; added \(sources.joined(separator: ", ")) (files no asset named).")
                )
            } else {
                Output.out(
                    "Rebuilt the catalog: \(report.restoredAssets) assets (\(sources.joined(separator: ", "))), \(report.restoredAlbums) albums."
                )
            }
            if let kept = report.damagedCatalogKeptAt { Output.out("The damaged catalog was kept in \(kept).") }
            if report.journalRecordsAdded > 0 {
                Output.out(
                    "Recorded \(report.journalRecordsAdded) saves and albums again in the library's journal, which lacked them."
                )
            }
            for problem in report.notRestored { Output.out("not restored: \(Output.shown(problem))") }
        }
        return report.notRestored.isEmpty ? 0 : 1
    }

    // MARK: shell support

    static func completions(_ arguments: Arguments) throws -> Int32 {
        let shell = arguments.positional[0]
        guard let script = ShellSupport.completions(for: shell) else {
            throw UsageFailure(message: "no completions for '\(shell)'; choose bash, zsh or fish")
        }
        Output.out(script, terminator: "")
        return 0
    }
}
