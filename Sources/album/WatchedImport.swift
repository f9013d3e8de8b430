import AlbumKit
import Foundation

/// `album import --watch DIR`: a watched folder, imported as its files arrive (Lightroom's Auto
/// Import, Shotwell's watched library folder). A file is imported once it is complete: its size and
/// modification time unchanged for `--settle` seconds and no process holding it open for writing.
/// The folder is read again when the kernel says something changed in it (inotify), and every
/// ``rescanInterval`` anyway (a network file system tells nothing). Files already in the library
/// are recognised as `import` recognises them, so a restart reads the folder again quietly.
enum WatchedImport {
    /// One round of ready files, saved by ``SaveCommand/run(_:importing:watched:)`` with the
    /// watch's counts.
    final class Batch: Sendable {
        /// The folder watched: its files keep their place below it (`--backup`).
        let root: [UInt8]
        let paths: [[UInt8]]
        let tally: Locked<SaveCommand.Tally>
        private let stop = Locked<(@Sendable () -> Void)?>(nil)

        init(root: [UInt8], paths: [[UInt8]], tally: Locked<SaveCommand.Tally>) {
            self.root = root
            self.paths = paths
            self.tally = tally
        }

        /// Calls `body` when Ctrl-C comes (at once when it came already).
        func onInterruption(_ body: @escaping @Sendable () -> Void) {
            stop.withLock { $0 = body }
            if Interruption.happened { body() }
        }

        func interrupt() { stop.withLock { $0 }?() }
    }

    /// How a file looked when it was last read: a change of any of these restarts its wait.
    private struct Stamp: Hashable {
        let size: Int64
        let modified: FileStatus.Time
        let identity: FileSystem.FileIdentity
    }

    /// How often the folder is read even when the kernel told of no change.
    static let rescanInterval = Duration.seconds(10)

    static func run(_ arguments: Arguments) async throws -> Int32 {
        guard let folder = arguments.value(.watch) else { return 2 }
        guard arguments.positional.isEmpty else {
            throw AlbumCommand.UsageFailure(
                message: "--watch DIR imports from DIR alone; give no FOLDER with it (one watch per folder)")
        }
        if arguments.dryRun {
            throw AlbumCommand.UsageFailure(
                message: "--dry-run does not apply to --watch (a watch imports as files arrive)")
        }
        var settle = Duration.seconds(2)
        if let text = arguments.value(.settle) {
            guard let seconds = Double(text), seconds.isFinite, seconds >= 0.1, seconds <= 3600 else {
                throw AlbumCommand.UsageFailure(
                    message: "--settle takes a number of seconds from 0.1 to 3600, not '\(text)'")
            }
            settle = .milliseconds(Int((seconds * 1000).rounded()))
        }
        let root = FileSystemPath(folder)
        guard FileSystem.fileStatus(atPath: root)?.kind == .directory else {
            throw AlbumError(
                .fileUnreadable, "Cannot watch \(folder): it is not a folder (or it cannot be read).", file: folder)
        }
        // A library that cannot be opened is said now, not at the first file.
        try await LibraryChoice.open(arguments, create: true).opened()

        let tally = Locked(SaveCommand.Tally())
        let current = Locked<Batch?>(nil)
        Interruption.install { current.withLock { $0 }?.interrupt() }
        if !arguments.quiet {
            let into = arguments.album.map { " into \"\(Output.shown($0))\"" } ?? ""
            Output.err(
                "album: watching \(Output.shown(folder))\(into): each photo and video is imported once it is complete; Ctrl-C stops"
            )
        }
        #if os(Linux)
            // Without inotify (a network or FUSE file system, no watches left) the folder is read
            // on every tick instead: slower to notice, never blind.
            let kernel = try? DirectoryWatch(root: folder)
        #endif
        let walk = FolderWalk(includes: arguments.includes, excludes: arguments.excludes)
        var sightings: [FileSystemPath: (stamp: Stamp, since: ContinuousClock.Instant)] = [:]
        var done: [FileSystemPath: Stamp] = [:]
        var waiting: Set<FileSystemPath> = []
        var lastRead: ContinuousClock.Instant?
        var unreadable = false
        let tick = min(settle / 4, .milliseconds(500))
        while !Interruption.happened {
            let now = ContinuousClock.now
            var told = true
            #if os(Linux)
                if let kernel {
                    // An overflowed queue lost events: read the folder, as for any change.
                    told = (try? kernel.takeEvents()) ?? true
                }
            #endif
            let due = lastRead.map { now - $0 >= rescanInterval } ?? true
            // Files settling are read every tick; a sidecar waiting for its photo waits for a change.
            let settling = sightings.keys.contains { !waiting.contains($0) }
            guard told || due || settling else {
                try? await Task.sleep(for: tick)  // Only cancellation throws; nothing cancels it.
                continue
            }
            lastRead = now
            let found: [FileSystem.Found]
            do {
                found = try walk.found(under: root)
                if unreadable && !arguments.quiet { Output.err("album: \(Output.shown(folder)) can be read again") }
                unreadable = false
            } catch {
                // A card taken out, a folder renamed: said once, and read again until it is back.
                if !unreadable {
                    Output.err(
                        "album: cannot read \(Output.shown(folder)) (\(error)); still watching for it to come back")
                }
                unreadable = true
                try? await Task.sleep(for: tick)  // Only cancellation throws; nothing cancels it.
                continue
            }
            var present: [FileSystemPath: Stamp] = [:]
            for item in found {
                guard case .file = item.kind, let status = FileSystem.fileStatus(atPath: item.path),
                    status.kind == .regular
                else { continue }
                present[item.path] = Stamp(
                    size: status.size, modified: status.modified, identity: FileSystem.FileIdentity(status))
            }
            sightings = sightings.filter { present[$0.key] != nil }
            waiting = waiting.filter { present[$0] != nil }
            var settled: [FileSystemPath: Stamp] = [:]
            for (path, stamp) in present where done[path] != stamp {
                if let seen = sightings[path], seen.stamp == stamp {
                    if now - seen.since >= settle { settled[path] = stamp }
                } else {
                    sightings[path] = (stamp, now)
                }
            }
            // Stable, but still open for writing: a writer pausing. Its wait goes on.
            let writing = FileSystem.filesOpenForWriting(among: Set(settled.values.map(\.identity))) ?? []
            settled = settled.filter { !writing.contains($0.value.identity) }
            // A writer that finished while the processes were looked at changed the file since it
            // was read: it settles again, so its stamp is the one imported.
            settled = settled.filter { path, stamp in
                FileSystem.fileStatus(atPath: path).map {
                    Stamp(size: $0.size, modified: $0.modified, identity: FileSystem.FileIdentity($0)) == stamp
                } ?? false
            }
            guard !settled.isEmpty else {
                try? await Task.sleep(for: tick)  // Only cancellation throws; nothing cancels it.
                continue
            }
            let (batch, held) = Self.batch(settled: settled, present: present, done: done)
            waiting = held
            if !batch.isEmpty && !Interruption.happened {
                let round = Batch(root: root.bytes, paths: batch.map(\.bytes), tally: tally)
                current.withLock { $0 = round }
                _ = try await SaveCommand.run(arguments, importing: true, watched: round)
                current.withLock { $0 = nil }
                // Each file is not tried again until it changes (a failure too: it would fail again).
                for path in batch {
                    if let stamp = settled[path] ?? done[path] { done[path] = stamp }
                    sightings.removeValue(forKey: path)
                }
            }
            try? await Task.sleep(for: tick)  // Only cancellation throws; nothing cancels it.
        }
        let t = tally.withLock { $0 }
        var parts = SaveCommand.counts(t, arguments, saved: "saved", failed: "failed")
        if t.cancelled > 0 { parts.append("\(t.cancelled) not saved (stopped)") }
        if !waiting.isEmpty {
            parts.append(
                "\(waiting.count) sidecar\(waiting.count == 1 ? "" : "s") still waiting for \(waiting.count == 1 ? "its" : "their") photo"
            )
        }
        if !arguments.quiet || t.failed > 0 {
            Output.err("album: stopped watching \(Output.shown(folder)): " + parts.joined(separator: ", "))
        }
        return t.failed == 0 && t.notMoved == 0 ? 0 : 1
    }

    /// The files to import now, in order, and the sidecars held back. A sidecar waits for its photo
    /// (one of its name beside it) to be complete, then goes with it; a sidecar that arrives after
    /// its photo was imported brings the photo along, so the library attaches it ("updated").
    private static func batch(
        settled: [FileSystemPath: Stamp], present: [FileSystemPath: Stamp], done: [FileSystemPath: Stamp]
    ) -> (batch: [FileSystemPath], waiting: Set<FileSystemPath>) {
        var chosen: Set<FileSystemPath> = []
        var waiting: Set<FileSystemPath> = []
        for path in settled.keys {
            guard let name = String(bytes: path.lastComponent.bytes, encoding: .utf8),
                CompanionGrouping.isSidecar(name)
            else {
                chosen.insert(path)
                continue
            }
            let owners = present.keys.filter { isOwner($0, ofSidecar: path) }
            let unfinished = owners.filter { settled[$0] == nil && done[$0] != present[$0] }
            if owners.isEmpty || !unfinished.isEmpty {
                waiting.insert(path)
            } else {
                chosen.insert(path)
                chosen.formUnion(owners)
            }
        }
        // A photo imported again (changed) takes its sidecars already imported along.
        for path in chosen
        where !(String(bytes: path.lastComponent.bytes, encoding: .utf8).map(CompanionGrouping.isSidecar) ?? false) {
            for other in present.keys where done[other] == present[other] && isOwner(path, ofSidecar: other) {
                chosen.insert(other)
            }
        }
        return (chosen.sorted { $0.bytes.lexicographicallyPrecedes($1.bytes) }, waiting)
    }

    /// Whether `photo` is the file `sidecar` belongs to by name, in the same folder: `IMG_1.CR2`
    /// for `IMG_1.CR2.xmp`, `IMG_1.JPG` for `IMG_1.xmp` or `IMG_1.AAE` (case aside).
    private static func isOwner(_ photo: FileSystemPath, ofSidecar sidecar: FileSystemPath) -> Bool {
        guard photo != sidecar, folder(of: photo) == folder(of: sidecar),
            let sidecarName = String(bytes: sidecar.lastComponent.bytes, encoding: .utf8)?.lowercased(),
            let photoName = String(bytes: photo.lastComponent.bytes, encoding: .utf8)?.lowercased(),
            !CompanionGrouping.isSidecar(photoName), let dot = sidecarName.lastIndex(of: ".")
        else { return false }
        let base = sidecarName[..<dot]
        return photoName == base || photoName.lastIndex(of: ".").map { photoName[..<$0] == base } ?? false
    }

    private static func folder(of path: FileSystemPath) -> [UInt8] {
        path.bytes.lastIndex(of: UInt8(ascii: "/")).map { Array(path.bytes[..<$0]) } ?? []
    }
}
