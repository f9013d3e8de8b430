import AlbumKit
import Foundation

/// Dispatches `album COMMAND` and turns every failure into a message on stderr and an exit status:
/// 0 success, 1 something asked failed, 2 usage error.
enum AlbumCommand {
    static func run(_ argv: [String]) async -> Int32 {
        let arguments: Arguments
        do { arguments = try Arguments(argv) } catch {
            Output.err("album: \(error.message)\nRun `album --help` for usage.")
            return 2
        }
        guard let command = arguments.command else {
            if arguments.help {
                Output.out(Help.overview)
                return 0
            }
            Output.err(Help.overview)
            return 2
        }
        if command == "help" {
            Output.out(arguments.positional.first.flatMap(Help.text(for:)) ?? Help.overview)
            return 0
        }
        guard let help = Help.text(for: command) else {
            Output.err("album: unknown command '\(command)'\nRun `album --help` for usage.")
            return 2
        }
        if arguments.help {
            Output.out(help)
            return 0
        }
        do {
            switch command {
            case "save": return try await save(arguments)
            case "albums": return try await albums(arguments)
            case "show": return try await show(arguments)
            case "create": return try await create(arguments)
            case "rename": return try await rename(arguments)
            case "delete": return try await delete(arguments)
            case "verify": return try await verify(arguments)
            case "init", "gc", "copy": return try await SharedCommands.run(command, arguments)
            default: return 2
            }
        } catch let error as UsageFailure {
            Output.err("album \(command): \(error.message)\n\n\(help)")
            return 2
        } catch {
            let error = error as? AlbumError ?? AlbumError(.ioFailure, "\(error)")
            if arguments.json {
                Output.json(["error": ["code": error.code.rawValue, "message": error.message]])
            }
            Output.err("album: \(error.message)")
            return 1
        }
    }

    struct UsageFailure: Error {
        let message: String
    }

    private static func expect(_ arguments: Arguments, count: Int, _ names: String) throws -> [String] {
        guard arguments.positional.count == count else {
            throw UsageFailure(message: "expected \(names)")
        }
        return arguments.positional
    }

    // MARK: save

    static func save(_ arguments: Arguments) async throws -> Int32 {
        var files: [String] = []
        for argument in arguments.positional {
            if argument == "-" {
                while let line = readLine() {
                    if !line.isEmpty { files.append(line) }
                }
            } else {
                files.append(argument)
            }
        }
        guard !files.isEmpty else { throw UsageFailure(message: "no FILE given") }
        let library = try LibraryChoice.open(arguments, create: true)
        let media = files.map { Media.file(URL(fileURLWithPath: $0)) }
        let showProgress = !arguments.json && files.count > 1 && Output.isTerminal
        var progress: (@Sendable (SaveProgress) -> Void)?
        if showProgress { progress = { Output.progress($0.completed, of: $0.total) } }
        let results: [Result<SavedAsset, AlbumError>]
        if let title = arguments.album {
            results = await library.album(titled: title).save(media, progress: progress)
        } else {
            results = await library.save(media, progress: progress)
        }
        var failures = 0
        for (file, result) in zip(files, results) {
            switch result {
            case .success(let saved):
                if arguments.json {
                    Output.json(
                        SaveLine(
                            file: file, asset: saved.assetID, album: saved.albumID,
                            albumOutcome: saved.albumOutcome?.description, existing: saved.isExisting ? true : nil))
                } else {
                    var line = "saved \(file) as \(saved.assetID)"
                    if let title = arguments.album, let outcome = saved.albumOutcome {
                        line += " in \"\(title)\" (album \(outcome))"
                    }
                    if saved.isExisting { line += " (already there)" }
                    Output.out(line)
                }
            case .failure(let error):
                failures += 1
                if arguments.json {
                    Output.json(SaveLine(file: file, error: .init(code: error.code.rawValue, message: error.message)))
                }
                Output.err("album: \(error.message) [\(error.code)]")
            }
        }
        if failures > 0 && files.count > 1 {
            Output.err("album: \(files.count - failures) of \(files.count) saved, \(failures) failed")
        }
        return failures == 0 ? 0 : 1
    }

    // MARK: listing

    static func albums(_ arguments: Arguments) async throws -> Int32 {
        _ = try expect(arguments, count: 0, "no arguments")
        let albums = try await LibraryChoice.open(arguments, create: false).albums()
        if arguments.json {
            struct Line: Encodable {
                let id: String
                let title: String
                let count: Int
            }
            Output.json(albums.map { Line(id: $0.id, title: $0.title, count: $0.count) })
        } else if albums.isEmpty {
            Output.out("No albums.")
        } else {
            let width = albums.map(\.id.count).max() ?? 0
            for album in albums {
                let count = String(album.count)
                Output.out(
                    album.id.padding(toLength: width, withPad: " ", startingAt: 0) + "  "
                        + String(repeating: " ", count: max(0, 6 - count.count)) + count + "  " + album.title)
            }
        }
        return 0
    }

    static func show(_ arguments: Arguments) async throws -> Int32 {
        let title = try expect(arguments, count: 1, "TITLE")[0]
        let assets = try await LibraryChoice.open(arguments, create: false).assets(inAlbumTitled: title)
        if arguments.json {
            Output.json(assets.map(AssetLine.init(info:)))
            return 0
        }
        if assets.isEmpty { Output.out("The album \"\(title)\" is empty.") }
        let formatter = ISO8601DateFormatter()
        for asset in assets {
            var line = [
                asset.id, asset.originalFilename ?? "-", asset.kind.rawValue, "\(asset.byteSize) bytes",
                formatter.string(from: asset.addedAt),
            ]
            if let m = asset.metadata {
                line.append(m.format.rawValue)
                if let w = m.width, let h = m.height { line.append("\(w)x\(h)") }
                if let date = m.captureDate { line.append("taken \(date)") }
                if let d = m.duration { line.append(String(format: "%.2fs", d)) }
            }
            Output.out(line.joined(separator: "  "))
        }
        return 0
    }

    // MARK: changing albums

    static func create(_ arguments: Arguments) async throws -> Int32 {
        let title = try expect(arguments, count: 1, "TITLE")[0]
        let info = try await LibraryChoice.open(arguments, create: true).createAlbum(titled: title)
        Output.out("album \"\(info.title)\" \(info.id)")
        return 0
    }

    static func rename(_ arguments: Arguments) async throws -> Int32 {
        let titles = try expect(arguments, count: 2, "TITLE and NEW")
        try await LibraryChoice.open(arguments, create: false).renameAlbum(titled: titles[0], to: titles[1])
        Output.out("renamed \"\(titles[0])\" to \"\(titles[1])\"")
        return 0
    }

    static func delete(_ arguments: Arguments) async throws -> Int32 {
        let title = try expect(arguments, count: 1, "TITLE")[0]
        try await LibraryChoice.open(arguments, create: false).deleteAlbum(titled: title, force: arguments.force)
        Output.out("deleted album \"\(title)\"")
        return 0
    }

    static func verify(_ arguments: Arguments) async throws -> Int32 {
        _ = try expect(arguments, count: 0, "no arguments")
        let report = try await LibraryChoice.open(arguments, create: false).verify()
        if arguments.json {
            struct Line: Encodable {
                let checked: Int
                let healthy: Bool
                let problems: [String]
            }
            Output.json(Line(checked: report.checkedAssets, healthy: report.isHealthy, problems: report.problems))
        } else if report.isHealthy {
            Output.out("ok: \(report.checkedAssets) assets verified")
        } else {
            for problem in report.problems { Output.out("problem: \(problem)") }
            Output.out("\(report.problems.count) problems in \(report.checkedAssets) assets")
        }
        return report.isHealthy ? 0 : 1
    }
}
