import AlbumKit
import Foundation

/// `album save` and `album import`: each result printed as soon as that file is durable, folders
/// walked with `-r`, paths from stdin (`-0` for NUL-separated), `--dry-run`, Ctrl-C handled.
enum SaveCommand {

    /// The error for a folder (under a walked one, or named) that could not be read.
    static func unreadableFolder(_ path: FileSystemPath, _ error: any Error) -> AlbumError {
        let cause = (error as? SystemError).map { String(cString: strerror($0.errno)).lowercased() } ?? "\(error)"
        return AlbumError(
            .fileUnreadable,
            "Cannot read the folder \(path) (\(cause)): the photos and videos in it were not saved.",
            file: path.description)
    }

    /// The key of ``Tally/earlier``: the name with A–Z in either case (``OriginalNameKey``, the
    /// fold the library looks names up with) and the capture date; `nil` without a capture date
    /// (no version is claimed then).
    static func versionKey(name: String?, captureDate: String?) -> String? {
        guard let name, let captureDate else { return nil }
        return OriginalNameKey.of(name) + "|" + captureDate
    }

    /// What happened to an input before the library saw it: refused (a folder without `-r`, a
    /// folder that cannot be read), or skipped by the walk (`skipped` is the JSON reason).
    enum Early {
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
            let status = FileSystem.fileStatus(atPath: path)
            guard status?.kind == .directory else {
                var input = Input(path, fromFolder: watched != nil)
                input.status = status
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
                input.status = item.status
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
        // The album's photos named as the files saved (A–Z in either case), as the album was before
        // the save: a file saved with the name and capture date of one of them (other bytes: edited
        // in place) is told as a new version of it. Looked up by name (the rest of the album is
        // never read), asked now and answered with the save's first request where the library can
        // (a shared library's upload record): results wait for the answer before they are reported.
        var readVersions: (@Sendable () async -> Void)?
        if let reference = arguments.album.map(AlbumReference.init), byDate == nil {
            // Each file's name as its result line gives it, and the raws of pairs (saved alone
            // when their JPEG cannot be).
            let names = inputs.flatMap { input in
                ([input.path] + input.companions.filter { $0.role == .raw }.map(\.path.description)).compactMap {
                    $0.split(separator: "/").last.map(String.init)
                }
            }
            let remember: @Sendable ([AssetInfo]) -> Void = { found in
                tally.withLock { tally in
                    for asset in found {
                        if let key = versionKey(name: asset.originalFilename, captureDate: asset.metadata?.captureDate)
                        {
                            tally.earlier[key, default: []].append(asset.id)
                        }
                    }
                }
            }
            if let earlier = await reference.assetsLater(originallyNamed: names, in: library) {
                readVersions = { remember(await earlier()) }
            } else {
                remember(try await reference.assets(originallyNamed: names, in: library))
            }
        }
        let versions = readVersions
        // With --move, results go through `mover` in order: each saved file's copy is read back
        // and compared before its source is removed and its line printed. Into an album whose
        // look-up goes with the save's first request, they go the same way, after it is answered.
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
            if moving || backup != nil || versions != nil {
                queue.yield((index, result))
                return
            }
            reportEarly(index)
            report(files[index], result, album: titles[index], arguments, tally)
        }
        // Not cancelled by Ctrl-C: what is saved by then is still copied, checked and moved.
        let mover = Task {
            var versionsRead = false
            for await (index, result) in moves {
                if !versionsRead, let versions {
                    // Asked for when the first result is, not before: the save's first request carries it.
                    await versions()
                    versionsRead = true
                }
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
    static func rawToSaveAlone(_ input: Input, after error: AlbumError) -> MediaCompanion? {
        let aboutThePhoto: Set<AlbumError.Code> = [.corruptMedia, .notMedia, .unsupportedMedia]
        guard aboutThePhoto.contains(error.code), error.file == nil || error.file == input.path else { return nil }
        return input.companions.first { $0.role == .raw }
    }

    /// `--backup DIR`: a second copy of `input` and its companions in DIR, at their place below the
    /// folder given (``SecondCopy``); a failure is named on its own line and counted, the save
    /// stands. Whether every copy is there.
    static func secondCopy(
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
    static func checkRemovable(_ inputs: [Input]) throws {
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
    enum Removal {
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
    static func removeSource(
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

    static func linksSkipped(_ count: Int, listed: Bool) -> String {
        "\(count) symbolic link\(count == 1 ? "" : "s") skipped (to folders or to nothing\(listed ? "" : "; -v lists them"))"
    }

    /// After a save created the album TITLE: a note when another album has a very similar title.
    static func warnAboutSimilarTitle(_ title: String, in library: PhotoLibrary) async {
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
    static func byteCount(_ input: Input) -> Int64 {
        ([input.bytes] + input.companions.map(\.path)).reduce(Int64(0)) { sum, path in
            sum + Int64(FileSystem.fileStatus(atPath: path)?.size ?? 0)
        }
    }
}
