import AlbumKit
import Foundation

/// Dispatches `album COMMAND` and turns every failure into a message on stderr and an exit status:
/// 0 success, 1 something asked failed, 2 usage error, 130 interrupted.
enum AlbumCommand {
    static func run(_ argv: [String]) async -> Int32 {
        let arguments: Arguments
        do { arguments = try Arguments(argv) } catch {
            Output.err("album: \(error.message)\nRun `album --help` for usage.")
            return 2
        }
        if arguments.version {
            Output.out("album \(CommandLineSpec.version)")
            return 0
        }
        guard let command = arguments.command else {
            if arguments.help {
                Output.out(Help.overview)
                return 0
            }
            Output.err(Help.overview)
            return 2
        }
        guard let spec = CommandLineSpec.command(command) else {
            var message = "album: unknown command '\(command)'"
            if let near = Suggestion.closest(to: command, among: CommandLineSpec.commands.map(\.name)) {
                message += ". Did you mean '\(near)'?"
            }
            Output.err(message + "\nRun `album --help` for the commands.")
            return 2
        }
        let help = Help.text(for: command) ?? Help.overview
        if arguments.help {
            Output.out(help)
            return 0
        }
        do {
            try arguments.check(for: spec)
            switch command {
            case "save": return try await SaveCommand.run(arguments, importing: false)
            case "import": return try await SaveCommand.run(arguments, importing: true)
            case "albums": return try await albums(arguments)
            case "show": return try await show(arguments)
            case "create": return try await create(arguments)
            case "rename": return try await rename(arguments)
            case "delete": return try await delete(arguments)
            case "verify": return try await verify(arguments)
            case "init", "gc", "copy": return try await SharedCommands.run(command, arguments)
            case "completions": return try completions(arguments)
            case "man":
                Output.out(ShellSupport.manPage, terminator: "")
                return 0
            case "help":
                Output.out(arguments.positional.first.flatMap(Help.text(for:)) ?? Help.overview)
                return 0
            default: return 2
            }
        } catch let error as Arguments.UsageError {
            Output.err("album \(command): \(error.message)\nRun `album \(command) --help` for usage.")
            return 2
        } catch let error as UsageFailure {
            Output.err("album \(command): \(error.message)\nRun `album \(command) --help` for usage.")
            return 2
        } catch {
            let error = AlbumError.wrap(error)
            let suggestion = await suggestion(for: error, arguments)
            if arguments.json {
                var failure = SaveLine.Failure(error)
                failure.suggestion = suggestion
                Output.json(["error": failure])
            }
            Output.err("album: \(error.message)" + (suggestion.map { " Did you mean \"\($0)\"?" } ?? ""))
            return 1
        }
    }

    struct UsageFailure: Error {
        let message: String
    }

    /// For an album that was not found: the closest existing title (case, accents, a typo).
    private static func suggestion(for error: AlbumError, _ arguments: Arguments) async -> String? {
        guard error.code == .albumNotFound, let title = error.albumTitle,
            let library = try? LibraryChoice.open(arguments, create: false),
            let albums = try? await library.albums()
        else { return nil }
        return Suggestion.closest(to: title, among: albums.map(\.title))
    }

    // MARK: listing

    static func albums(_ arguments: Arguments) async throws -> Int32 {
        let albums = try await LibraryChoice.open(arguments, create: false).albums()
        if arguments.json {
            Output.json(albums.map(AlbumLine.init))
        } else if albums.isEmpty {
            if !arguments.quiet { Output.out("No albums.") }
        } else {
            Output.table(
                albums.map { [$0.id, String($0.count), $0.title] }, header: ["ID", "COUNT", "TITLE"],
                rightAligned: [1])
        }
        return 0
    }

    static func show(_ arguments: Arguments) async throws -> Int32 {
        let title = arguments.positional[0]
        let assets = try await LibraryChoice.open(arguments, create: false).assets(inAlbumTitled: title)
        if arguments.json {
            Output.json(assets.map(AssetLine.init(info:)))
            return 0
        }
        if assets.isEmpty {
            Output.out("The album \"\(title)\" is empty.")
            return 0
        }
        let added = ISO8601DateFormatter()
        var rows: [[String]] = []
        for asset in assets {
            let m = asset.metadata
            var details: [String] = [m?.format.rawValue ?? asset.kind.rawValue]
            if let w = m?.width, let h = m?.height { details.append("\(w)×\(h)") }
            if let d = m?.duration { details.append(String(format: "%.1f s", d)) }
            let camera = [m?.make, m?.model].compactMap { $0 }.joined(separator: " ")
            var gps = ""
            if let lat = m?.latitude, let lon = m?.longitude { gps = String(format: "%.5f, %.5f", lat, lon) }
            rows.append([
                asset.originalFilename ?? "-", asset.kind.rawValue, Output.size(asset.byteSize),
                m?.captureDate.map { $0.replacingOccurrences(of: "T", with: " ") }
                    ?? "added " + added.string(from: asset.addedAt),
                details.joined(separator: " "), camera, gps, asset.id, asset.fileURL?.path ?? "",
            ])
        }
        Output.table(
            rows, header: ["NAME", "KIND", "SIZE", "TAKEN", "FORMAT", "CAMERA", "GPS", "ID", "PATH"],
            rightAligned: [2])
        return 0
    }

    // MARK: changing albums

    /// The album a title resolves to (the oldest with that title, as the library resolves it).
    private static func info(titled title: String, in library: PhotoLibrary) async throws -> AlbumInfo? {
        let key = title.trimmingCharacters(in: .whitespaces).precomposedStringWithCanonicalMapping
        return try await library.albums().first { $0.title.precomposedStringWithCanonicalMapping == key }
    }

    static func create(_ arguments: Arguments) async throws -> Int32 {
        let info = try await LibraryChoice.open(arguments, create: true).createAlbum(titled: arguments.positional[0])
        if arguments.json {
            Output.json(AlbumLine(info))
        } else if !arguments.quiet {
            Output.out("album \"\(info.title)\" \(info.id)")
        }
        return 0
    }

    static func rename(_ arguments: Arguments) async throws -> Int32 {
        let (old, new) = (arguments.positional[0], arguments.positional[1])
        let library = try LibraryChoice.open(arguments, create: false)
        let before = try await info(titled: old, in: library)
        try await library.renameAlbum(titled: old, to: new)
        if arguments.json {
            let after = try await library.albums().first { $0.id == before?.id }
            var line = AlbumLine(after ?? AlbumInfo(id: before?.id ?? "", title: new, count: before?.count ?? 0))
            line.previousTitle = before?.title ?? old
            Output.json(line)
        } else if !arguments.quiet {
            Output.out("renamed \"\(old)\" to \"\(new)\"")
        }
        return 0
    }

    static func delete(_ arguments: Arguments) async throws -> Int32 {
        let title = arguments.positional[0]
        let library = try LibraryChoice.open(arguments, create: false)
        let before = try await info(titled: title, in: library)
        try await library.deleteAlbum(titled: title, force: arguments.force)
        if arguments.json {
            var line = AlbumLine(before ?? AlbumInfo(id: "", title: title, count: 0))
            line.deleted = true
            Output.json(line)
        } else if !arguments.quiet {
            Output.out("deleted album \"\(title)\"")
        }
        return 0
    }

    static func verify(_ arguments: Arguments) async throws -> Int32 {
        let report = try await LibraryChoice.open(arguments, create: false).verify()
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
            for problem in report.problems { Output.out("problem: \(problem)") }
            Output.out("\(report.problems.count) problems in \(report.checkedAssets) assets")
        }
        return report.isHealthy ? 0 : 1
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
