import AlbumKit
import Foundation

/// `album save` and `album import`: each result printed as soon as that file is durable, folders
/// walked with `-r`, paths from stdin (`-0` for NUL-separated), `--dry-run`, Ctrl-C handled.
enum SaveCommand {
    /// One file to save and whether it was found inside a folder (then a file that is not media is
    /// skipped, not a failure).
    struct Input {
        let path: String
        let fromFolder: Bool
        /// The path's bytes as given, when they are not valid UTF-8 (`path` then shows U+FFFD).
        var bytes: [UInt8]? = nil

        var media: Media { .path(bytes.map { FileSystemPath(bytes: $0) } ?? FileSystemPath(path)) }
    }

    private struct Tally {
        var saved = 0
        var failed = 0
        var skipped = 0
        var cancelled = 0
        var created = false
    }

    static func run(_ arguments: Arguments, importing: Bool) async throws -> Int32 {
        let recursive = importing || arguments.recursive
        // Paths travel as bytes, from arguments and from stdin: names need not be valid UTF-8.
        var named: [[UInt8]] = []
        for (argument, bytes) in zip(arguments.positional, arguments.positionalBytes) {
            if argument == "-" {
                named += readStandardInput(nulSeparated: arguments.null)
            } else {
                named.append(bytes)
            }
        }
        guard !named.isEmpty else { throw AlbumCommand.UsageFailure(message: "no FILE given") }
        var inputs: [Input] = []
        var early: [(position: Int, input: Input, error: AlbumError)] = []  // position: before inputs[position]
        for bytes in named {
            let path = String(decoding: bytes, as: UTF8.self)
            if String(bytes: bytes, encoding: .utf8) == nil {
                inputs.append(Input(path: path, fromFolder: false, bytes: bytes))
                continue
            }
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
                guard recursive else {
                    early.append(
                        (
                            inputs.count, Input(path: path, fromFolder: false),
                            AlbumError(
                                .fileUnreadable,
                                "\(path) is a folder; add -r (or use `album import`) to save the photos and videos in it.",
                                file: path)
                        ))
                    continue
                }
                inputs += FolderWalk(includes: arguments.includes, excludes: arguments.excludes).files(under: path)
                    .map { Input(path: $0, fromFolder: true) }
            } else {
                inputs.append(Input(path: path, fromFolder: false))
            }
        }
        if arguments.dryRun { return try dryRun(arguments, inputs, early: early) }

        let library = try LibraryChoice.open(arguments, create: true)
        try await library.opened()
        let tally = Locked(Tally())
        // Results in input order: a folder refused up front is printed where it was named.
        let pending = Locked(early[...])
        let reportEarly: @Sendable (Int) -> Void = { position in
            while let first = pending.withLock({ $0.first.flatMap { $0.position <= position ? $0 : nil } }) {
                pending.withLock { _ = $0.popFirst() }
                report(first.input, .failure(first.error), arguments, tally)
            }
        }
        guard !inputs.isEmpty else {
            reportEarly(.max)
            return summary(arguments, tally, total: early.count, walked: recursive)
        }

        let media = inputs.map(\.media)
        let files = inputs
        ProgressLine.shared.start(total: media.count, enabled: Output.isTerminal && !arguments.quiet && media.count > 1)
        let progress: @Sendable (SaveProgress) -> Void = { ProgressLine.shared.update($0.prepared) }
        let onResult: @Sendable (Int, Result<SavedAsset, AlbumError>) -> Void = { index, result in
            reportEarly(index)
            report(files[index], result, arguments, tally)
        }
        // --album TITLE, or id:ID for exactly that album (see AlbumReference).
        var album: Album?
        switch arguments.album.map(AlbumReference.init) {
        case .title(let title): album = library.album(titled: title)
        case .id(let id): album = try await library.album(withID: id, accessPolicy: .requireAlbum)
        case nil: album = nil
        }
        let target = album
        let task = Task {
            if let target { return await target.save(media, progress: progress, onResult: onResult) }
            return await library.save(media, progress: progress, onResult: onResult)
        }
        Interruption.install { task.cancel() }
        _ = await task.value
        reportEarly(.max)
        ProgressLine.shared.stop()
        if let title = arguments.album, tally.withLock({ $0.created }), !arguments.quiet {
            await warnAboutSimilarTitle(title, in: library)
        }
        return summary(arguments, tally, total: inputs.count + early.count, walked: recursive)
    }

    /// Prints one result as soon as it is final.
    private static func report(
        _ input: Input, _ result: Result<SavedAsset, AlbumError>, _ arguments: Arguments, _ tally: Locked<Tally>
    ) {
        switch result {
        case .success(let saved):
            tally.withLock {
                $0.saved += 1
                if saved.albumOutcome == .created { $0.created = true }
            }
            if arguments.json {
                Output.json(
                    SaveLine(
                        file: input.path, asset: saved.assetID, album: saved.albumID,
                        albumOutcome: saved.albumOutcome?.description, existing: saved.isExisting ? true : nil,
                        restored: saved.isRestored ? true : nil))
            } else if !arguments.quiet {
                var line = "saved \(input.path) as \(saved.assetID)"
                if let title = arguments.album, let outcome = saved.albumOutcome {
                    line += " in \"\(title)\" (album \(outcome))"
                }
                if saved.isRestored {
                    line += " (restored: the library's copy was missing or damaged)"
                } else if saved.isExisting {
                    line += " (already there)"
                }
                Output.out(line)
            }
        case .failure(let error) where error.code == .notMedia && input.fromFolder:
            tally.withLock { $0.skipped += 1 }
            guard arguments.verbose else { return }
            if arguments.json {
                Output.json(SaveLine(file: input.path, skipped: error.code.rawValue))
            } else {
                Output.err("album: skipped \(input.path) (not a photo or video)")
            }
        case .failure(let error) where error.code == .cancelled:
            tally.withLock { $0.cancelled += 1 }
            if arguments.json { Output.json(SaveLine(file: input.path, error: .init(error))) }
        case .failure(let error):
            tally.withLock { $0.failed += 1 }
            if arguments.json { Output.json(SaveLine(file: input.path, error: .init(error))) }
            Output.err("album: \(error.message) [\(error.code)]")
        }
    }

    /// The one-line summary on stderr, and the exit status.
    private static func summary(_ arguments: Arguments, _ tally: Locked<Tally>, total: Int, walked: Bool) -> Int32 {
        let t = tally.withLock { $0 }
        var parts = ["\(t.saved) of \(total) saved"]
        if t.failed > 0 { parts.append("\(t.failed) failed") }
        if t.skipped > 0 { parts.append("\(t.skipped) skipped (not photos or videos)") }
        if Interruption.happened {
            parts.append("\(t.cancelled) not saved")
            Output.err("album: interrupted: " + parts.joined(separator: ", "))
            return 130
        }
        if walked || arguments.verbose || t.skipped > 0 || (t.failed > 0 && total > 1) {
            Output.err("album: " + parts.joined(separator: ", "))
        }
        return t.failed == 0 && t.cancelled == 0 ? 0 : 1
    }

    /// After a save created the album TITLE: a note when another album has a very similar title.
    private static func warnAboutSimilarTitle(_ title: String, in library: PhotoLibrary) async {
        guard let titles = try? await library.albumTitles(), let created = try? AlbumTitle(title) else { return }
        // The album just made, as the library stores and compares its title, is not "another" one.
        let others = titles.filter { (try? AlbumTitle($0))?.key != created.key }
        if let near = Suggestion.closest(to: created.text, among: others) {
            Output.err("album: note: created a new album \"\(created.text)\"; there is also \"\(near)\" (a typo?)")
        }
    }

    // MARK: dry run

    private static func dryRun(
        _ arguments: Arguments, _ inputs: [Input], early: [(position: Int, input: Input, error: AlbumError)]
    ) throws -> Int32 {
        _ = try LibraryChoice.resolve(arguments, create: true)
        if let title = arguments.album { _ = try AlbumTitle(title) }
        let tally = Locked(Tally())
        var would = 0
        for (position, input) in inputs.enumerated() {
            for refused in early where refused.position == position {
                report(refused.input, .failure(refused.error), arguments, tally)
            }
            do {
                let reader = try MediaReader(.path(FileSystemPath(input.path)))
                would += 1
                let m = reader.metadata
                if arguments.json {
                    var line = SaveLine(file: input.path)
                    line.wouldSave = true
                    line.kind = m.kind.rawValue
                    line.format = m.format.rawValue
                    Output.json(line)
                } else if !arguments.quiet {
                    var details = [m.format.rawValue]
                    if let w = m.width, let h = m.height { details.append("\(w)×\(h)") }
                    details.append(Output.size(Int64(reader.size)))
                    Output.out("would save \(input.path) (\(details.joined(separator: ", ")))")
                }
            } catch {
                report(input, .failure(AlbumError.wrap(error, file: input.path)), arguments, tally)
            }
        }
        for refused in early where refused.position >= inputs.count {
            report(refused.input, .failure(refused.error), arguments, tally)
        }
        let t = tally.withLock { $0 }
        var parts = ["\(would) of \(inputs.count + early.count) would be saved"]
        if t.failed > 0 { parts.append("\(t.failed) would fail") }
        if t.skipped > 0 { parts.append("\(t.skipped) skipped (not photos or videos)") }
        Output.err("album: dry run, nothing written: " + parts.joined(separator: ", "))
        return t.failed == 0 ? 0 : 1
    }

    // MARK: standard input

    /// Paths from stdin, as bytes: one per line, or NUL-separated (`-0`). Empty entries are ignored.
    static func readStandardInput(nulSeparated: Bool) -> [[UInt8]] {
        let data = FileHandle.standardInput.readDataToEndOfFile()
        let separator: UInt8 = nulSeparated ? 0 : UInt8(ascii: "\n")
        return data.split(separator: separator, omittingEmptySubsequences: true).map { Array($0) }
    }
}
