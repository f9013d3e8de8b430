import AlbumKit
import Foundation

/// `album save` and `album import`: each result printed as soon as that file is durable, folders
/// walked with `-r`, paths from stdin (`-0` for NUL-separated), `--dry-run`, Ctrl-C handled.
enum SaveCommand {
    /// One file to save and whether it was found inside a folder (then a file that is not media is
    /// skipped, not a failure).
    struct Input {
        /// The path's bytes as given.
        let bytes: FileSystemPath
        let fromFolder: Bool
        /// The files saved with it (its sidecars, the raw of a RAW+JPEG pair).
        var companions: [MediaCompanion] = []

        init(_ bytes: FileSystemPath, fromFolder: Bool) {
            self.bytes = bytes
            self.fromFolder = fromFolder
        }

        /// The path for messages and JSON (names that are not valid UTF-8 show U+FFFD).
        var path: String { bytes.description }

        var media: Media { companions.isEmpty ? .path(bytes) : Media.path(bytes).with(companions: companions) }

        /// Its path below the folder given (`DCIM/100CANON/IMG_1.JPG`), where `--backup` puts its
        /// second copy; a file named alone goes at the top.
        var relative: FileSystemPath?

        /// The components of ``relative`` (the file's name alone when there is none).
        var backupComponents: [String] {
            let path = relative ?? bytes.lastComponent
            return path.bytes.split(separator: UInt8(ascii: "/")).map { String(decoding: $0, as: UTF8.self) }
        }

        /// " (with IMG_1.CR2, IMG_1.xmp)" for a line, or nothing.
        var withCompanions: String {
            companions.isEmpty
                ? "" : " (with " + companions.map { Output.shown($0.fileName) }.joined(separator: ", ") + ")"
        }

        /// For JSON: the path's bytes in base64 when `path` could not show them (not UTF-8).
        var exactBytes: String? {
            String(bytes: bytes.bytes, encoding: .utf8) == nil ? Data(bytes.bytes).base64EncodedString() : nil
        }
    }

    /// The error for a folder (under a walked one, or named) that could not be read.
    private static func unreadableFolder(_ path: FileSystemPath, _ error: any Error) -> AlbumError {
        let cause = (error as? SystemError).map { String(cString: strerror($0.errno)).lowercased() } ?? "\(error)"
        return AlbumError(
            .fileUnreadable,
            "Cannot read the folder \(path) (\(cause)): the photos and videos in it were not saved.",
            file: path.description)
    }

    struct Tally {
        var saved = 0
        /// Files the library already held: not stored again (added to the album where missing).
        var already = 0
        /// Of those, files whose companions (sidecars, raws) were new or changed: updated.
        var updated = 0
        var failed = 0
        var skipped = 0
        /// Symbolic links in a walked folder that lead to a folder or to nothing.
        var skippedLinks = 0
        var cancelled = 0
        /// `--move`: sources removed, and those kept because their copy could not be checked.
        var moved = 0
        var notMoved = 0
        /// Sidecars found without their photo: not saved, reported.
        var orphans = 0
        /// A clip's `.THM` and `.LRV` files saved with it (not as photos and videos of their own).
        var clipCompanions = 0
        /// The videos they were saved with.
        var clipsWithCompanions = 0
        /// Catalog libraries found in a folder walked: left out, reported.
        var libraries = 0
        /// The albums this save created.
        var created: Set<String> = []
        /// The albums whose outcome (created, found) a line has said: each is said once.
        var told: Set<String> = []
        /// Files already in the library with nothing else to say, left out of the text unless `-v`:
        /// the summary counts them.
        var folded = 0
        /// The album's assets before the save, by original name (case aside) and capture date: a
        /// file saved with the same name and capture date is a new version of one of them.
        var earlier: [String: [String]] = [:]
        /// Files saved that are a new version of one in the album, and the assets they are new
        /// versions of (`--replace` deletes them afterwards).
        var newVersions = 0
        var replaced: [String] = []
        /// `--backup`: second copies written, found there already, and files without one.
        var backedUp = 0
        var backupsThere = 0
        var notBackedUp = 0
    }

    /// The key of ``Tally/earlier``: `nil` without a capture date (no version is claimed then).
    private static func versionKey(name: String?, captureDate: String?) -> String? {
        guard let name, let captureDate else { return nil }
        return name.lowercased() + "|" + captureDate
    }

    /// What happened to an input before the library saw it: refused (a folder without `-r`, a
    /// folder that cannot be read), or skipped by the walk (`skipped` is the JSON reason).
    private enum Early {
        case failed(AlbumError)
        case skipped(reason: String, message: String)
        /// A sidecar whose photo is not beside it: reported even without -v.
        case orphan
        /// An AlbumKit catalog library inside a folder walked: left out, reported even without -v.
        case catalogLibrary
    }

    /// Saves the files and folders named (or, for `import --watch`, the files of `watched`, its
    /// counts added to the watch's and its summary left to it).
    static func run(_ arguments: Arguments, importing: Bool, watched: WatchedImport.Batch? = nil) async throws
        -> Int32
    {
        let recursive = importing || arguments.recursive
        // Paths travel as bytes, from arguments and from stdin: names need not be valid UTF-8.
        var named: [[UInt8]] = watched?.paths ?? []
        for (argument, bytes) in zip(arguments.positional, arguments.positionalBytes) where watched == nil {
            if argument == "-" {
                named += readStandardInput(nulSeparated: arguments.null)
            } else {
                named.append(bytes)
            }
        }
        guard !named.isEmpty else {
            throw AlbumCommand.UsageFailure(message: importing ? "no FOLDER given (or --watch DIR)" : "no FILE given")
        }
        let described = try CreationDescription(arguments)
        let byDate = try arguments.value(.albumByDate).map { format throws(AlbumCommand.UsageFailure) in
            try AlbumDateFormat(format)
        }
        if byDate != nil && arguments.album != nil {
            throw AlbumCommand.UsageFailure(
                message: "--album and --album-by-date both name the album; give one of them")
        }
        // Filters that would filter nothing are a mistake to point out, not to ignore.
        if !recursive && (!arguments.includes.isEmpty || !arguments.excludes.isEmpty) {
            throw AlbumCommand.UsageFailure(
                message: "--include and --exclude filter the folders walked with -r (or `album import`); add -r")
        }
        var inputs: [Input] = []
        var early: [(position: Int, input: Input, outcome: Early)] = []  // position: before inputs[position]
        for bytes in named {
            let path = FileSystemPath(bytes: bytes)
            guard FileSystem.fileStatus(atPath: path)?.kind == .directory else {
                var input = Input(path, fromFolder: watched != nil)
                // A watched folder's file keeps its place below the folder.
                if let root = watched?.root, bytes.starts(with: root + [UInt8(ascii: "/")]) {
                    input.relative = FileSystemPath(bytes: bytes.dropFirst(root.count + 1))
                }
                inputs.append(input)
                continue
            }
            guard recursive else {
                early.append(
                    (
                        inputs.count, Input(path, fromFolder: false),
                        .failed(
                            AlbumError(
                                .fileUnreadable,
                                "\(path) is a folder; add -r (or use `album import`) to save the photos and videos in it.",
                                file: path.description))
                    ))
                continue
            }
            // The folder named is itself a catalog library (`import --move Photos.albumlibrary`, or
            // a link or mount of it): left out whole, as one met inside a walked folder is.
            if CatalogFormat.isCatalogLibrary(atPath: path.description) {
                early.append((inputs.count, Input(path, fromFolder: true), .catalogLibrary))
                continue
            }
            let walk = FolderWalk(includes: arguments.includes, excludes: arguments.excludes)
            let found: [FileSystem.Found]
            do { found = try walk.found(under: path) } catch {
                let input = Input(path, fromFolder: false)
                early.append((inputs.count, input, .failed(unreadableFolder(path, error))))
                continue
            }
            for item in found {
                var input = Input(item.path, fromFolder: true)
                input.relative = item.relative
                let shown = item.path.description
                switch item.kind {
                case .file:
                    inputs.append(input)
                    continue
                case .special:
                    early.append(
                        (
                            inputs.count, input,
                            .failed(
                                AlbumError(
                                    .notMedia, "\(shown) is not a regular file (a pipe, socket or device).", file: shown
                                ))
                        ))
                case .linkToFolder:
                    early.append(
                        (
                            inputs.count, input,
                            .skipped(
                                reason: "linkToFolder",
                                message: "a link to a folder; links are not followed: name its target to save it")
                        ))
                case .catalogLibrary:
                    early.append((inputs.count, input, .catalogLibrary))
                case .brokenLink:
                    early.append((inputs.count, input, .skipped(reason: "brokenLink", message: "a link to nothing")))
                case .unreadableFolder(let error):
                    early.append((inputs.count, input, .failed(unreadableFolder(item.path, error))))
                }
            }
        }
        // Each photo's sidecars and the raw of a RAW+JPEG pair go with it, as one asset.
        (inputs, early) = await gathered(inputs, early: early, pairingRaws: !arguments.has(.separateRaw))
        // Files already in the library are recognised before anything is copied: by name, size and
        // modification time, or with --checksum by their content's SHA-256.
        let check: RecognitionCheck = arguments.has(.checksum) ? .checksum : .quick
        // --album-by-date: each file's album, from its capture date (else its file time).
        let titles: [String?] =
            if let byDate { await datedTitles(inputs.map(\.media), byDate) } else {
                inputs.map { _ in arguments.album }
            }
        // --move: every source folder must let its files be removed, checked before anything is saved.
        let moving = arguments.has(.move)
        if moving { try checkRemovable(inputs) }
        let backup = arguments.value(.backup)
        if arguments.dryRun { return try await dryRun(arguments, inputs, titles, early: early, check: check) }

        let library = try LibraryChoice.open(arguments, create: true)
        try await library.opened()
        let tally = watched?.tally ?? Locked(Tally())
        // A watch's earlier batches found their own versions; this one looks at the album afresh.
        tally.withLock {
            $0.earlier = [:]
            $0.replaced = []
        }
        // Results in input order: a folder refused up front is printed where it was named.
        let pending = Locked(early[...])
        let reportEarly: @Sendable (Int) -> Void = { position in
            while let first = pending.withLock({ $0.first.flatMap { $0.position <= position ? $0 : nil } }) {
                pending.withLock { _ = $0.popFirst() }
                reportBeforeSaving(first.input, first.outcome, arguments, tally)
            }
        }
        guard !inputs.isEmpty else {
            reportEarly(.max)
            return watched == nil ? summary(arguments, tally, total: early.count, walked: recursive) : 0
        }

        let media = inputs.map { described.apply(to: $0.media) }
        let files = inputs
        let total = inputs.count + early.count
        Output.stopNote.withLock {
            guard watched == nil else { return }
            $0 = {
                let reached = tally.withLock { $0.saved + $0.already + $0.failed + $0.skipped + $0.skippedLinks }
                return
                    "; stopped at file \(reached) of \(total): the files before it are saved, the rest may not be. The same save run again saves what is missing (files already there are found, not copied twice)."
            }
        }
        // Progress in files and bytes, counting only what is durable (each result is reported once
        // its file is saved), never what is merely being copied.
        let showsProgress = Output.isTerminal && !arguments.quiet && media.count > 1
        let sizes: [Int64] = showsProgress ? inputs.map(Self.byteCount) : []
        ProgressLine.shared.start(total: media.count, enabled: showsProgress, totalBytes: sizes.reduce(0, +))
        let durable = Locked((files: 0, bytes: Int64(0)))
        let advance: @Sendable (Int) -> Void = { index in
            guard showsProgress else { return }
            let now = durable.withLock { total in
                total.files += 1
                total.bytes += sizes[index]
                return total
            }
            ProgressLine.shared.update(now.files, bytes: now.bytes)
        }
        // With --move, results go through `mover` in order: each saved file's copy is read back
        // and compared before its source is removed and its line printed.
        let (moves, queue) = AsyncStream.makeStream(of: (Int, Result<SavedAsset, AlbumError>).self)
        // RAW+JPEG pairs whose JPEG cannot be saved: their raw is saved alone afterwards.
        let rawsAlone = Locked<[Int]>([])
        let onResult: @Sendable (Int, Result<SavedAsset, AlbumError>) -> Void = { index, given in
            advance(index)
            var result = given
            if case .failure(let error) = given, let raw = Self.rawToSaveAlone(files[index], after: error) {
                rawsAlone.withLock { $0.append(index) }
                result = .failure(
                    AlbumError(
                        error.code,
                        error.message
                            + " It is the JPEG of a RAW+JPEG pair: its raw \(Output.shown(raw.fileName)) is saved alone.",
                        file: error.file ?? files[index].path))
            }
            if moving || backup != nil {
                queue.yield((index, result))
                return
            }
            reportEarly(index)
            report(files[index], result, album: titles[index], arguments, tally)
        }
        // Not cancelled by Ctrl-C: what is saved by then is still copied, checked and moved.
        let mover = Task {
            for await (index, result) in moves {
                reportEarly(index)
                var removal: Removal?
                var copied = true
                if case .success = result, let backup {
                    copied = await secondCopy(of: files[index], into: backup, arguments, tally)
                }
                if case .success(let saved) = result, moving {
                    removal =
                        copied
                        ? await removeSource(files[index], saved, library)
                        : .kept(
                            AlbumError(
                                .ioFailure,
                                "\(files[index].path) was saved but not removed: its second copy could not be made. It stays where it is.",
                                file: files[index].path))
                }
                if case .notSaved(let error)? = removal {
                    report(files[index], .failure(error), album: titles[index], arguments, tally)
                } else {
                    report(files[index], result, album: titles[index], arguments, tally, removal: removal)
                }
            }
        }
        // --album TITLE, or id:ID for exactly that album (see AlbumReference).
        var album: Album?
        switch arguments.album.map(AlbumReference.init) {
        case .title(let title): album = library.album(titled: title)
        case .id(let id): album = try await library.album(withID: id, accessPolicy: .requireAlbum)
        case nil: album = nil
        }
        // The album's photos before the save: a file saved with the name and capture date of one of
        // them (other bytes: edited in place) is told as a new version of it.
        if let reference = arguments.album.map(AlbumReference.init), byDate == nil,
            // An album not found yet has no versions to tell; the save itself reports any error.
            let albumID = try? await reference.id(in: library)
        {
            let earlier = try await library.assets(inAlbumWithID: albumID)
            tally.withLock { tally in
                for asset in earlier {
                    if let key = versionKey(name: asset.originalFilename, captureDate: asset.metadata?.captureDate) {
                        tally.earlier[key, default: []].append(asset.id)
                    }
                }
            }
        }
        let target = album
        let task = Task {
            if let target {
                return await target.save(media, recognising: check, progress: nil, onResult: onResult)
            }
            guard byDate != nil else {
                return await library.save(media, recognising: check, progress: nil, onResult: onResult)
            }
            // One save per album, in the order the albums first appear: each finds or creates its
            // album once, in the same transaction as its files.
            var groups: [(title: String?, indices: [Int])] = []
            var position: [String?: Int] = [:]
            for index in titles.indices {
                if let at = position[titles[index]] {
                    groups[at].indices.append(index)
                } else {
                    position[titles[index]] = groups.count
                    groups.append((titles[index], [index]))
                }
            }
            for group in groups {
                let indices = group.indices
                let part = indices.map { media[$0] }
                let mapped: @Sendable (Int, Result<SavedAsset, AlbumError>) -> Void = { onResult(indices[$0], $1) }
                if Task.isCancelled {
                    let error = AlbumError(.cancelled, "The save was cancelled before this item was saved.")
                    for offset in indices.indices { mapped(offset, .failure(error)) }
                } else if let title = group.title {
                    _ = await library.album(titled: title).save(
                        part, recognising: check, progress: nil, onResult: mapped)
                } else {
                    _ = await library.save(part, recognising: check, progress: nil, onResult: mapped)
                }
            }
            return []
        }
        if let watched { watched.onInterruption { task.cancel() } } else { Interruption.install { task.cancel() } }
        _ = await task.value
        queue.finish()
        await mover.value
        // The raws of pairs whose JPEG failed, each saved alone into its photo's album.
        for index in rawsAlone.withLock({ $0 }).sorted() where !Task.isCancelled && !Interruption.happened {
            guard let raw = files[index].companions.first(where: { $0.role == .raw }) else { continue }
            let input = Input(raw.path, fromFolder: files[index].fromFolder)
            let saving = described.apply(to: input.media)
            let results: [Result<SavedAsset, AlbumError>] =
                if let target {
                    await target.save([saving], recognising: check, progress: nil, onResult: nil)
                } else if let title = titles[index] {
                    await library.album(titled: title).save([saving], recognising: check, progress: nil, onResult: nil)
                } else {
                    await library.save([saving], recognising: check, progress: nil, onResult: nil)
                }
            for result in results {
                var removal: Removal?
                var copied = true
                if case .success = result, let backup {
                    copied = await secondCopy(of: input, into: backup, arguments, tally)
                }
                if moving, copied, case .success(let saved) = result {
                    removal = await removeSource(input, saved, library)
                }
                if case .notSaved(let error)? = removal {
                    report(input, .failure(error), album: titles[index], arguments, tally)
                } else {
                    report(input, result, album: titles[index], arguments, tally, removal: removal)
                }
            }
        }
        reportEarly(.max)
        ProgressLine.shared.stop()
        // --replace: the earlier versions go to recently deleted (restore brings them back).
        let replaced = tally.withLock { $0.replaced }
        if arguments.has(.replace) && !replaced.isEmpty {
            _ = try await library.deleteAssets(withIDs: replaced)
        }
        if let title = arguments.album, tally.withLock({ !$0.created.isEmpty }), !arguments.quiet {
            await warnAboutSimilarTitle(title, in: library)
        }
        guard watched == nil else { return 0 }
        return summary(arguments, tally, total: inputs.count + early.count, walked: recursive)
    }

    /// The raw of `input`'s RAW+JPEG pair when `error` is about the JPEG's own bytes (damaged, not
    /// a photo, a format this library cannot hold): the intact raw is then saved alone.
    private static func rawToSaveAlone(_ input: Input, after error: AlbumError) -> MediaCompanion? {
        let aboutThePhoto: Set<AlbumError.Code> = [.corruptMedia, .notMedia, .unsupportedMedia]
        guard aboutThePhoto.contains(error.code), error.file == nil || error.file == input.path else { return nil }
        return input.companions.first { $0.role == .raw }
    }

    /// Prints what happened to an input the library never saw.
    private static func reportBeforeSaving(
        _ input: Input, _ outcome: Early, _ arguments: Arguments, _ tally: Locked<Tally>
    ) {
        switch outcome {
        case .failed(let error): report(input, .failure(error), album: nil, arguments, tally)
        case .skipped(let reason, let message):
            tally.withLock { $0.skippedLinks += 1 }
            guard arguments.verbose else { return }
            if arguments.json {
                Output.json(SaveLine(file: input.path, fileBytes: input.exactBytes, skipped: reason))
            } else {
                Output.err("album: skipped \(Output.shown(input.path)) (\(message))")
            }
        case .catalogLibrary:
            tally.withLock { $0.libraries += 1 }
            if arguments.json {
                Output.json(SaveLine(file: input.path, fileBytes: input.exactBytes, skipped: "catalogLibrary"))
            } else if !arguments.quiet {
                Output.err(
                    "album: left out \(Output.shown(input.path)): it is an AlbumKit catalog library; its files are never saved or moved from inside it (open it with --library to use it)"
                )
            }
        case .orphan:
            tally.withLock { $0.orphans += 1 }
            if arguments.json {
                Output.json(SaveLine(file: input.path, fileBytes: input.exactBytes, skipped: "sidecarWithoutPhoto"))
            } else if !arguments.quiet {
                Output.err(
                    "album: not saved: \(Output.shown(input.path)) is a sidecar without its photo (no photo of that name beside it); it stays where it is"
                )
            }
        }
    }

    /// Prints one result as soon as it is final.
    private static func report(
        _ input: Input, _ result: Result<SavedAsset, AlbumError>, album title: String?, _ arguments: Arguments,
        _ tally: Locked<Tally>, removal: Removal? = nil
    ) {
        switch result {
        case .success(let saved):
            // A copy put back in place of a missing or damaged one was stored: saved.
            let already = saved.isExisting && !saved.isRestored
            var moved = false
            switch removal {
            case .removed?:
                moved = true
                tally.withLock { $0.moved += 1 }
            case .kept?: tally.withLock { $0.notMoved += 1 }
            case .isLibraryFile?, .notSaved?, nil: break
            }
            // A file already in the library with nothing else to tell (not moved, restored, updated,
            // or with files left out) is one of the summary's count, unless -v lists it.
            var isLibraryFile = false
            if case .isLibraryFile? = removal { isLibraryFile = true }
            let folded =
                already && !arguments.verbose && !moved && saved.companionsUpdated.isEmpty
                && saved.companionsLeftOut.isEmpty && !isLibraryFile
            let name = input.path.split(separator: "/").last.map(String.init)
            let key = versionKey(name: name, captureDate: saved.metadata?.captureDate)
            let (tellsAlbum, earlier) = tally.withLock { tally -> (Bool, String?) in
                if already { tally.already += 1 } else { tally.saved += 1 }
                let clipCompanions = input.companions.filter {
                    String(bytes: $0.path.lastComponent.bytes, encoding: .utf8).map(CompanionGrouping.isClipCompanion)
                        ?? false
                }.count
                if !already && clipCompanions > 0 {
                    tally.clipCompanions += clipCompanions
                    tally.clipsWithCompanions += 1
                }
                var earlier: String?
                if !already, let key, let ids = tally.earlier[key]?.filter({ $0 != saved.assetID }), !ids.isEmpty {
                    earlier = ids.joined(separator: " ")
                    tally.newVersions += 1
                    tally.replaced += ids
                }
                if saved.isExisting && !saved.companionsUpdated.isEmpty { tally.updated += 1 }
                if saved.albumOutcome == .created, let title { tally.created.insert(title) }
                if folded && !arguments.json {
                    tally.folded += 1
                    return (false, nil)
                }
                // The album's outcome is said on the first line into it only (a save in batches
                // finds the album its first batch created: that is not news).
                guard let title, saved.albumOutcome != .notRequested else { return (false, earlier) }
                return (tally.told.insert(title).inserted, earlier)
            }
            if arguments.json {
                Output.json(
                    SaveLine(
                        file: input.path, fileBytes: input.exactBytes, asset: saved.assetID, album: saved.albumID,
                        albumOutcome: saved.albumOutcome == .notRequested ? nil : saved.albumOutcome.description,
                        existing: saved.isExisting ? true : nil,
                        restored: saved.isRestored ? true : nil, moved: removal.map { _ in moved },
                        companions: input.companions.isEmpty ? nil : input.companions.map(\.path.description),
                        companionsLeftOut: saved.companionsLeftOut.isEmpty ? nil : saved.companionsLeftOut,
                        companionsUpdated: saved.companionsUpdated.isEmpty ? nil : saved.companionsUpdated))
            } else if !arguments.quiet && !folded {
                let verb =
                    already ? (moved ? "already in the library (moved): " : alreadyPrefix) : moved ? "moved " : "saved "
                // Ids only with -v: a photographer reads names.
                var line = verb + Output.shown(input.path) + (arguments.verbose ? " as \(saved.assetID)" : "")
                if !already { line += input.withCompanions }
                if let title, saved.albumOutcome != .notRequested {
                    line += " in \"\(Output.shown(title))\""
                    if tellsAlbum { line += " (album \(saved.albumOutcome))" }
                }
                if let earlier {
                    line +=
                        " (a new version of the one already in the album, taken at the same time"
                        + (arguments.verbose ? ", \(earlier)" : "")
                        + (arguments.has(.replace) ? ": that one goes to recently deleted)" : ")")
                }
                if saved.isRestored { line += " (restored: the library's copy was missing or damaged)" }
                if case .isLibraryFile? = removal { line += " (it is the library's own file: left where it is)" }
                if saved.isExisting && !saved.companionsUpdated.isEmpty {
                    line += " (updated: \(saved.companionsUpdated.map(Output.shown).joined(separator: ", ")))"
                }
                if !saved.companionsLeftOut.isEmpty {
                    let names = saved.companionsLeftOut.map(Output.shown).joined(separator: ", ")
                    line +=
                        saved.isExisting
                        ? " (\(names) not kept: the library already holds this photo, with the files it was saved with)"
                        : " (\(names) not kept: this library has no place for them; they stay where they are)"
                }
                Output.out(line)
            }
            if case .kept(let error)? = removal {
                Output.err("album: \(Output.shown(error.message)) [\(error.code)]")
            }
        case .failure(let error) where error.code == .notMedia && input.fromFolder:
            tally.withLock { $0.skipped += 1 }
            guard arguments.verbose else { return }
            if arguments.json {
                Output.json(SaveLine(file: input.path, fileBytes: input.exactBytes, skipped: error.code.rawValue))
            } else {
                Output.err("album: skipped \(Output.shown(input.path)) (not a photo or video)")
            }
        case .failure(let error) where error.code == .cancelled:
            tally.withLock { $0.cancelled += 1 }
            if arguments.json {
                Output.json(SaveLine(file: input.path, fileBytes: input.exactBytes, error: .init(error)))
            }
        case .failure(let error):
            tally.withLock { $0.failed += 1 }
            if arguments.json {
                Output.json(SaveLine(file: input.path, fileBytes: input.exactBytes, error: .init(error)))
            }
            Output.err("album: \(Output.shown(error.message)) [\(error.code)]")
        }
    }

    /// How a file the library already holds is reported, in a real run and a dry run alike.
    private static let alreadyPrefix = "already in the library: "

    /// The counts of a summary: "9 saved, 2 already in the library, 5 skipped (…)".
    static func counts(_ t: Tally, _ arguments: Arguments, saved: String, failed: String) -> [String] {
        var parts = ["\(t.saved) \(saved)"]
        if t.already > 0 {
            let updated = t.updated > 0 ? " (\(t.updated) with sidecars updated)" : ""
            parts.append("\(t.already) already in the library" + updated)
        }
        if t.newVersions > 0 {
            let count = t.newVersions
            parts.append(
                "\(count) new version\(count == 1 ? "" : "s") of \(count == 1 ? "a photo" : "photos") already in the album"
                    + (arguments.has(.replace) ? " (the earlier in recently deleted)" : ""))
        }
        if t.clipCompanions > 0 {
            let count = t.clipCompanions
            parts.append(
                "\(count) clip companion\(count == 1 ? "" : "s") (.THM, .LRV) kept with \(t.clipsWithCompanions) video\(t.clipsWithCompanions == 1 ? "" : "s")"
            )
        }
        if arguments.has(.move) && !arguments.dryRun { parts.append("\(t.moved) moved (removed from where they were)") }
        if t.notMoved > 0 { parts.append("\(t.notMoved) not moved (kept where they are)") }
        if t.skipped > 0 { parts.append("\(t.skipped) skipped (not photos or videos)") }
        if t.orphans > 0 {
            parts.append(
                "\(t.orphans) sidecar\(t.orphans == 1 ? "" : "s") without \(t.orphans == 1 ? "its" : "their") photo (not saved)"
            )
        }
        if t.skippedLinks > 0 { parts.append(linksSkipped(t.skippedLinks, listed: arguments.verbose)) }
        if t.libraries > 0 { parts.append("\(t.libraries) catalog librar\(t.libraries == 1 ? "y" : "ies") left out") }
        if let backup = arguments.value(.backup), !arguments.dryRun {
            var copies = "\(t.backedUp) second cop\(t.backedUp == 1 ? "y" : "ies") made in \(Output.shown(backup))"
            if t.backupsThere > 0 { copies += " (\(t.backupsThere) there already)" }
            parts.append(copies)
            if t.notBackedUp > 0 {
                parts.append("\(t.notBackedUp) without a second copy (named above)")
            }
        }
        if t.failed > 0 { parts.append("\(t.failed) \(failed)") }
        return parts
    }

    /// The one-line summary on stderr, and the exit status. `-q` prints it only when something
    /// failed.
    private static func summary(_ arguments: Arguments, _ tally: Locked<Tally>, total: Int, walked: Bool) -> Int32 {
        let t = tally.withLock { $0 }
        var parts = counts(t, arguments, saved: "saved", failed: "failed")
        if Interruption.happened {
            parts.append("\(t.cancelled) not saved")
            Output.err("album: interrupted: " + parts.joined(separator: ", "))
            return 130
        }
        let wanted =
            walked || arguments.verbose || t.skipped > 0 || t.skippedLinks > 0 || t.orphans > 0 || t.libraries > 0
            || t.folded > 0 || (t.failed > 0 && total > 1)
        if wanted && (!arguments.quiet || t.failed > 0) {
            Output.err("album: " + parts.joined(separator: ", "))
        }
        return t.failed == 0 && t.cancelled == 0 && t.notMoved == 0 && t.notBackedUp == 0 ? 0 : 1
    }

    /// `--backup DIR`: a second copy of `input` and its companions in DIR, at their place below the
    /// folder given (``SecondCopy``); a failure is named on its own line and counted, the save
    /// stands. Whether every copy is there.
    private static func secondCopy(
        of input: Input, into root: String, _ arguments: Arguments, _ tally: Locked<Tally>
    ) async -> Bool {
        var components = input.backupComponents
        var files = [(input.bytes, components)]
        for companion in input.companions {
            components[components.count - 1] = String(decoding: companion.path.lastComponent.bytes, as: UTF8.self)
            files.append((companion.path, components))
        }
        var complete = true
        for (source, place) in files {
            do {
                let outcome = try await Blocking.run { () throws(AlbumError) in
                    try SecondCopy.make(of: source, into: root, at: place)
                }
                switch outcome {
                case .made(let path):
                    tally.withLock { $0.backedUp += 1 }
                    if arguments.verbose && !arguments.json {
                        Output.err("album: second copy of \(Output.shown(source.description)) in \(Output.shown(path))")
                    }
                case .alreadyThere: tally.withLock { $0.backupsThere += 1 }
                }
            } catch {
                complete = false
                tally.withLock { $0.notBackedUp += 1 }
                let error = AlbumError.wrap(error, file: source.description)
                Output.err("album: \(Output.shown(error.message)) [\(error.code)]")
            }
        }
        return complete
    }

    /// `--move`: refuses, before anything is saved, when a source folder does not let its files be
    /// removed (read-only media, a folder without write permission).
    private static func checkRemovable(_ inputs: [Input]) throws {
        var checked: Set<FileSystemPath> = []
        for input in inputs {
            let bytes = input.bytes.bytes
            let folder =
                bytes.lastIndex(of: UInt8(ascii: "/")).map { at in
                    FileSystemPath(bytes: at == 0 ? [UInt8(ascii: "/")] : Array(bytes[..<at]))
                } ?? FileSystemPath(".")
            guard checked.insert(folder).inserted else { continue }
            do throws(SystemError) { try FileSystem.checkWritable(folder) } catch {
                let cause = String(cString: strerror(error.errno)).lowercased()
                throw AlbumError(
                    .accessDenied,
                    "Cannot move files out of \(folder) (\(cause)): --move removes each file once it is saved, and this folder does not allow it. Nothing was saved; import without --move to copy the files.",
                    file: folder.description)
            }
        }
    }

    /// What `--move` did with a saved file's source.
    private enum Removal {
        /// Removed (with its companions).
        case removed
        /// The source is the library's own file: nothing to remove, nothing lost.
        case isLibraryFile
        /// Kept where it is, for the reason given; the save stands.
        case kept(AlbumError)
        /// Its bytes were never saved: the library answered "already there" for a file of the same
        /// name, size and time whose bytes differ. Reported as a failure.
        case notSaved(AlbumError)
    }

    /// `--move`: removes `input` through ``SourceRemoval`` (never the library's own file, nothing
    /// inside the library or a catalog library, a file unchanged since it was read, whose bytes
    /// the library's copy, read back now under another inode, has): otherwise it stays.
    private static func removeSource(
        _ input: Input, _ saved: SavedAsset, _ library: PhotoLibrary
    ) async -> Removal {
        let shown = input.path
        func kept(_ why: String, _ code: AlbumError.Code = .ioFailure) -> Removal {
            .kept(AlbumError(code, "\(shown) was saved but not removed: \(why). It stays where it is.", file: shown))
        }
        do {
            guard let copies = try await library.storedCopies(ofAssetWithID: saved.assetID) else {
                return kept("this library cannot read its copies back to check them", .notSupported)
            }
            let outcome = try await Blocking.run {
                SourceRemoval.remove(input.bytes, matching: [copies.original], libraryRoot: copies.libraryRoot)
            }
            switch outcome {
            case .removed: break
            case .isLibraryFile: return .isLibraryFile
            case .kept(let why): return kept(why)
            case .differs where saved.isExisting && !saved.isRestored:
                return .notSaved(
                    AlbumError(
                        .ioFailure,
                        "\(shown) was not saved: the library's \(saved.assetID) has its name, size and modification time but other bytes, so it was taken for a file already there. It stays where it is; `album import --checksum` compares contents and saves it.",
                        file: shown))
            case .differs:
                return kept(
                    "it no longer matches the library's copy (\(saved.assetID), SHA-256): it changed after it was saved"
                )
            }
            // Its companions go too, each only once the library's copy of it reads back identical.
            var left: [String] = []
            for companion in input.companions {
                let outcome = try await Blocking.run {
                    SourceRemoval.remove(companion.path, matching: copies.companions, libraryRoot: copies.libraryRoot)
                }
                if outcome != .removed { left.append(companion.path.description) }
            }
            if !left.isEmpty {
                return .kept(
                    AlbumError(
                        .ioFailure,
                        "\(shown) was moved, but not \(left.joined(separator: ", ")): the library holds no identical copy of \(left.count == 1 ? "it" : "them") outside this folder. \(left.count == 1 ? "It stays" : "They stay") where \(left.count == 1 ? "it is" : "they are").",
                        file: left[0]))
            }
            return .removed
        } catch {
            let error = AlbumError.wrap(error, file: shown)
            return kept(error.message.prefix(1).lowercased() + error.message.dropFirst(), error.code)
        }
    }

    private static func linksSkipped(_ count: Int, listed: Bool) -> String {
        "\(count) symbolic link\(count == 1 ? "" : "s") skipped (to folders or to nothing\(listed ? "" : "; -v lists them"))"
    }

    /// After a save created the album TITLE: a note when another album has a very similar title.
    private static func warnAboutSimilarTitle(_ title: String, in library: PhotoLibrary) async {
        // Only a note: a library that cannot list its titles now (or a title the save took) has
        // nothing to compare with, and the save already said what happened.
        guard let titles = try? await library.albumTitles(), let created = try? AlbumTitle(title) else { return }
        // The album just made, as the library stores and compares its title, is not "another" one.
        let others = titles.filter { (try? AlbumTitle($0))?.key != created.key }
        if let near = Suggestion.closest(to: created.text, among: others) {
            Output.err(
                Output.shown(
                    "album: note: created a new album \"\(created.text)\"; there is also \"\(near)\" (a typo?)"))
        }
    }

    /// The bytes of an input and its companions, for the progress line (0 for what cannot be read).
    private static func byteCount(_ input: Input) -> Int64 {
        ([input.bytes] + input.companions.map(\.path)).reduce(Int64(0)) { sum, path in
            sum + Int64(FileSystem.fileStatus(atPath: path)?.size ?? 0)
        }
    }

    // MARK: companions

    /// Gives each photo its companions among the inputs (``CompanionGrouping``: its sidecars, the raw
    /// of a RAW+JPEG pair taken at the same moment), folder by folder; they are no inputs of their
    /// own any more. A sidecar without its photo becomes an early `.orphan`; `early`'s positions
    /// follow the inputs that stay.
    private static func gathered(
        _ inputs: [Input], early: [(position: Int, input: Input, outcome: Early)], pairingRaws: Bool
    ) async -> ([Input], [(position: Int, input: Input, outcome: Early)]) {
        var byFolder: [[UInt8]: [Int]] = [:]
        for index in inputs.indices {
            let bytes = inputs[index].bytes.bytes
            let folder = bytes.lastIndex(of: UInt8(ascii: "/")).map { Array(bytes[...$0]) } ?? []
            byFolder[folder, default: []].append(index)
        }
        func name(_ index: Int) -> String? {
            // Names that are not UTF-8 are left as they are: a photo of its own, never a companion.
            String(bytes: inputs[index].bytes.lastComponent.bytes, encoding: .utf8)
        }
        var companionsOf: [Int: [(role: MediaCompanion.Role, index: Int)]] = [:]
        var orphans: [Int] = []
        for (_, indices) in byFolder
        where indices.count > 1 || indices.contains(where: { name($0).map(CompanionGrouping.isSidecar) ?? false }) {
            var byName: [String: Int] = [:]
            for index in indices { if let name = name(index) { byName[name] = index } }
            let grouping = CompanionGrouping(Array(byName.keys).sorted(), pairingRaws: pairingRaws)
            for group in grouping.groups where !group.companions.isEmpty {
                companionsOf[byName[group.primary]!] = group.companions.map { ($0.role, byName[$0.name]!) }
            }
            orphans += grouping.orphans.map { byName[$0]! }
        }
        // A raw and its JPEG whose capture times differ are two photos, not a pair.
        let pairs = companionsOf.flatMap { primary, companions in
            companions.filter { $0.role == .raw }.map { (primary, $0.index) }
        }
        if !pairs.isEmpty {
            let unpaired = Locked(Set<Int>())
            await Blocking.forEach(pairs.count) { at in
                let (photo, raw) = pairs[at]
                // A file whose capture time cannot be read is paired by its name alone.
                guard let first = try? MediaReader(inputs[photo].media).metadata.captureDate,
                    let second = try? MediaReader(inputs[raw].media).metadata.captureDate,
                    let a = AssetInfo.date(fromCaptureDate: first), let b = AssetInfo.date(fromCaptureDate: second),
                    abs(a.timeIntervalSince(b)) > 2
                else { return }
                unpaired.withLock { _ = $0.insert(raw) }
            }
            let separate = unpaired.withLock { $0 }
            for (primary, companions) in companionsOf {
                companionsOf[primary] = companions.filter { !separate.contains($0.index) }
            }
        }
        var absorbed = Set(orphans)
        for companions in companionsOf.values { absorbed.formUnion(companions.map(\.index)) }
        guard !absorbed.isEmpty else { return (inputs, early) }
        var kept: [Input] = []
        var newPosition: [Int] = []  // old index → how many inputs stay before it
        var lone: [(position: Int, input: Input, outcome: Early)] = []
        for index in inputs.indices {
            newPosition.append(kept.count)
            if orphans.contains(index) { lone.append((kept.count, inputs[index], .orphan)) }
            guard !absorbed.contains(index) else { continue }
            var input = inputs[index]
            input.companions = (companionsOf[index] ?? []).map {
                MediaCompanion(role: $0.role, path: inputs[$0.index].bytes)
            }
            kept.append(input)
        }
        newPosition.append(kept.count)
        let moved = early.map { (position: newPosition[$0.position], input: $0.input, outcome: $0.outcome) }
        // In the order they were found: a stable merge by position.
        let merged =
            (moved.enumerated().map { ($0.element, 0, $0.offset) }
            + lone.enumerated().map { ($0.element, 1, $0.offset) })
            .sorted { ($0.0.position, $0.1, $0.2) < ($1.0.position, $1.1, $1.2) }
            .map(\.0)
        return (kept, merged)
    }

    // MARK: dry run

    /// Predicts, line for line, what the same save would print, and writes nothing: files the
    /// library already holds are recognised as the save recognises them (`check`), the others
    /// inspected, then hashed to find those the library (or an earlier file of this run) holds under
    /// another name.
    private static func dryRun(
        _ arguments: Arguments, _ inputs: [Input], _ titles: [String?],
        early: [(position: Int, input: Input, outcome: Early)], check: RecognitionCheck
    ) async throws -> Int32 {
        let (url, _) = try LibraryChoice.resolve(arguments, create: true)
        for title in Set(titles.compactMap { $0 }) { _ = try AlbumTitle(title) }
        // The library as it is; one that does not exist yet holds nothing (and is not created).
        let exists = url.map { FileManager.default.fileExists(atPath: $0.path) } ?? true
        let library: PhotoLibrary? = exists ? try LibraryChoice.open(arguments, create: false) : nil
        var title: String?
        var albumID: String?
        switch arguments.album.map(AlbumReference.init) {
        case .title(let given): title = given
        case .id(let id):
            if let library {
                title = try await library.album(withID: id, accessPolicy: .requireAlbum).title
                albumID = id
            }
        case nil: break
        }
        let media = inputs.map(\.media)
        // Each file looked for where its save would look: its album, by date or the one given.
        let byDate = arguments.has(.albumByDate)
        func recognise(_ probes: [FileProbe?], _ indices: [Int]) async throws -> [RecognisedFile?] {
            guard let library, probes.contains(where: { $0 != nil }) else { return probes.map { _ in nil } }
            guard byDate else { return try await library.recognise(probes, in: title, albumID: albumID) }
            var found = [RecognisedFile?](repeating: nil, count: probes.count)
            for album in Set(indices.map { titles[$0] }) {
                let offsets = probes.indices.filter { titles[indices[$0]] == album }
                let part = try await library.recognise(offsets.map { probes[$0] }, in: album)
                for (offset, known) in zip(offsets, part) { found[offset] = known }
            }
            return found
        }
        var probes = await probe(media, hashing: check == .checksum)
        var found = try await recognise(probes, Array(inputs.indices))
        // Companions that differ by name, size or time are compared by content, as the save compares
        // them once it has copied them: only those of other bytes would be updated.
        if check == .quick {
            let differing = inputs.indices.filter { found[$0]?.companionsToUpdate.isEmpty == false }
            let read = await probe(differing.map { media[$0] }, hashing: true)
            let byContent = try await recognise(read, differing)
            for (offset, index) in differing.enumerated() where byContent[offset] != nil {
                found[index] = byContent[offset]
            }
        }
        // Not recognised: inspected, as staging inspects; media then compared by content.
        // What each reader learnt, not the reader: it holds its file open (thousands of files).
        var readers: [Int: Result<(metadata: MediaMetadata, size: UInt64), AlbumError>] = [:]
        for index in inputs.indices where found[index] == nil {
            readers[index] = Result {
                let reader = try MediaReader(media[index])
                return (reader.metadata, UInt64(reader.size))
            }.mapError { AlbumError.wrap($0, file: inputs[index].path) }
        }
        if check == .quick {
            let unknown = inputs.indices.filter { if case .success = readers[$0] { true } else { false } }
            let read = await probe(unknown.map { media[$0] }, hashing: true)
            for (offset, index) in unknown.enumerated() { probes[index] = read[offset] }
            let byContent = try await recognise(unknown.map { probes[$0] }, unknown)
            for (offset, index) in unknown.enumerated() { found[index] = byContent[offset] }
        }

        let tally = Locked(Tally())
        var firstWithContent: [String: String] = [:]  // size/SHA-256 → the first file of this run with it
        func already(
            _ input: Input, _ title: String?, as asset: String?, in album: String? = nil, sameAs first: String? = nil,
            updating: [String] = []
        ) {
            // As the real run: nothing else to tell, counted in the summary unless -v.
            let folded = !arguments.verbose && updating.isEmpty && !arguments.has(.move) && !arguments.json
            tally.withLock {
                $0.already += 1
                if !updating.isEmpty { $0.updated += 1 }
                if folded { $0.folded += 1 }
            }
            if arguments.json {
                Output.json(
                    SaveLine(
                        file: input.path, fileBytes: input.exactBytes, asset: asset, album: album, existing: true,
                        companionsUpdated: updating.isEmpty ? nil : updating))
            } else if !arguments.quiet && !folded {
                // --move: a file the library holds is removed too, once its copy is checked.
                var line =
                    (arguments.has(.move) ? "already in the library (would move): " : alreadyPrefix)
                    + Output.shown(input.path)
                if let asset, arguments.verbose { line += " as \(asset)" }
                if let title { line += " in \"\(Output.shown(title))\"" }
                if let first { line += " (the same as \(Output.shown(first)))" }
                if !updating.isEmpty {
                    line += " (would update: \(updating.map(Output.shown).joined(separator: ", ")))"
                }
                Output.out(line)
            }
        }
        for (position, input) in inputs.enumerated() {
            for refused in early where refused.position == position {
                reportBeforeSaving(refused.input, refused.outcome, arguments, tally)
            }
            if let known = found[position] {
                already(
                    input, titles[position], as: known.assetID, in: known.albumID, updating: known.companionsToUpdate)
                continue
            }
            let reader: (metadata: MediaMetadata, size: UInt64)
            switch readers[position] {
            case .success(let opened)?: reader = opened
            case .failure(let error)?:
                report(input, .failure(error), album: nil, arguments, tally)
                continue
            case nil: continue
            }
            if let probe = probes[position], let sha256 = probe.sha256 {
                let content = "\(probe.size)/\(sha256)"
                if let first = firstWithContent[content] {
                    already(input, titles[position], as: nil, sameAs: first)
                    continue
                }
                firstWithContent[content] = input.path
            }
            tally.withLock { $0.saved += 1 }
            let m = reader.metadata
            if arguments.json {
                var line = SaveLine(file: input.path, fileBytes: input.exactBytes)
                line.wouldSave = true
                line.kind = m.kind.rawValue
                line.format = m.format.rawValue
                if !input.companions.isEmpty { line.companions = input.companions.map(\.path.description) }
                Output.json(line)
            } else if !arguments.quiet {
                var details = [m.format.rawValue]
                if let w = m.width, let h = m.height { details.append("\(w)×\(h)") }
                details.append(Output.size(Int64(reader.size)))
                let verb = arguments.has(.move) ? "would move " : "would save "
                var line =
                    verb + "\(Output.shown(input.path)) (\(details.joined(separator: ", ")))" + input.withCompanions
                if byDate, let title = titles[position] { line += " in \"\(Output.shown(title))\"" }
                Output.out(line)
            }
        }
        for refused in early where refused.position >= inputs.count {
            reportBeforeSaving(refused.input, refused.outcome, arguments, tally)
        }
        let t = tally.withLock { $0 }
        if !arguments.quiet || t.failed > 0 {
            let parts = counts(t, arguments, saved: "would be saved", failed: "would fail")
            Output.err("album: dry run, nothing written: " + parts.joined(separator: ", "))
        }
        return t.failed == 0 ? 0 : 1
    }

    /// Each file's album title for `format`: from its capture date, else its modification time;
    /// `nil` for a file that cannot be inspected (its save reports why).
    private static func datedTitles(_ media: [Media], _ format: AlbumDateFormat) async -> [String?] {
        let titles = Locked([String?](repeating: nil, count: media.count))
        await Blocking.forEach(media.count) { index in
            // A file that cannot be inspected fails its save with the reason: no title is lost.
            guard let reader = try? MediaReader(media[index]) else { return }
            let modified = reader.modified.map {
                Date(timeIntervalSince1970: TimeInterval($0.seconds) + TimeInterval($0.nanoseconds) / 1e9)
            }
            let moment = AlbumDateFormat.moment(captureDate: reader.metadata.captureDate, modified: modified)
            let title = moment.map(format.title(for:))
            titles.withLock { $0[index] = title }
        }
        return titles.withLock { $0 }
    }

    /// Each file's probe (``FileProbe``), read whole when `hashing`, on every core.
    private static func probe(_ media: [Media], hashing: Bool) async -> [FileProbe?] {
        let probes = Locked([FileProbe?](repeating: nil, count: media.count))
        await Blocking.forEach(media.count) { index in
            let probe = FileProbe(media[index], hashing: hashing)
            probes.withLock { $0[index] = probe }
        }
        return probes.withLock { $0 }
    }

    // MARK: standard input

    /// Paths from stdin, as bytes: one per line, or NUL-separated (`-0`). Empty entries are ignored.
    static func readStandardInput(nulSeparated: Bool) -> [[UInt8]] {
        let data = FileHandle.standardInput.readDataToEndOfFile()
        let separator: UInt8 = nulSeparated ? 0 : UInt8(ascii: "\n")
        return data.split(separator: separator, omittingEmptySubsequences: true).map { Array($0) }
    }
}
