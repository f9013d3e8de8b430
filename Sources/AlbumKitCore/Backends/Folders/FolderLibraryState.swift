import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// AlbumKit's own hidden folder at the root of a folder library, `.albumkit/`:
///
/// - `lock`: `flock`ed while a process resolves, creates, renames or deletes albums and publishes
///   files, so processes never create the same album twice;
/// - `albums.json`: remembered album identifiers, `{"titles": {title key: {"id", "folder"}}}`
///   (the folder is a hint that makes the lookup O(1));
/// - `staging/`: staged files when `O_TMPFILE` is unavailable, new album folders before they get
///   their name, markers being replaced, and notes (`.aside`) naming album folders moved aside
///   while being deleted. Entries carry the owning process's token (``StagingName``);
///   ``sweep(root:)`` moves the folders of dead processes' notes back, then removes their entries;
/// - `owners/`: one `flock`ed file per process writing here (``ProcessOwner``), which proves it alive.
///
/// Hidden, so digiKam, Shotwell, gThumb and file managers never show it.
package enum FolderLibraryState {
    package static let directoryName = ".albumkit"
    static let lockName = "lock"
    static let rememberedName = "albums.json"
    static let stagingName = "staging"

    /// A remembered album: its identifier and the folder it was last seen in.
    package struct Remembered: Codable, Sendable, Hashable {
        package var id: String
        package var folder: String
    }

    private struct RememberedFile: Codable {
        var version = 1
        var titles: [String: Remembered] = [:]
    }

    /// Opens `.albumkit/` for reading; `nil` when it does not exist.
    static func open(root: FileSystem.Descriptor) throws(SystemError) -> FileSystem.Descriptor? {
        do {
            return try FileSystem.openDirectory(directoryName, in: root)
        } catch  where error.errno == ENOENT {
            return nil
        }
    }

    /// Opens `.albumkit/`, creating it (and flushing the root) when missing.
    static func openOrCreate(root: FileSystem.Descriptor) throws(SystemError) -> FileSystem.Descriptor {
        do {
            return try FileSystem.openDirectory(directoryName, in: root)
        } catch  where error.errno == ENOENT {
            if try FileSystem.makeDirectory(directoryName, in: root) { try FileSystem.fsync(root) }
            return try FileSystem.openDirectory(directoryName, in: root)
        }
    }

    /// Opens (creating) `.albumkit/staging/`, after registering this process as a live owner in
    /// `.albumkit/owners/` (staging names carry its token).
    static func openStaging(state: FileSystem.Descriptor) throws(SystemError) -> FileSystem.Descriptor {
        try ProcessOwner.register(in: owners(state: state))
        do {
            return try FileSystem.openDirectory(stagingName, in: state)
        } catch  where error.errno == ENOENT {
            if try FileSystem.makeDirectory(stagingName, in: state) { try FileSystem.fsync(state) }
            return try FileSystem.openDirectory(stagingName, in: state)
        }
    }

    /// Takes the library lock; closing the returned descriptor releases it.
    static func lock(state: FileSystem.Descriptor) throws(SystemError) -> FileSystem.Descriptor {
        let file = try FileSystem.openLockFile(lockName, in: state)
        do { try FileSystem.lockExclusively(file) } catch {
            FileSystem.close(file)
            throw error
        }
        return file
    }

    /// The remembered albums by title key; empty when none were saved or the file is unreadable.
    static func remembered(state: FileSystem.Descriptor?) -> [String: Remembered] {
        guard let state, let bytes = try? FileSystem.readSmallFile(rememberedName, in: state, limit: 16 << 20),
            let file = try? JSONDecoder().decode(RememberedFile.self, from: Data(bytes))
        else { return [:] }
        return file.titles
    }

    /// Replaces the remembered albums atomically (write a staged copy, flush, rename over).
    static func saveRemembered(_ titles: [String: Remembered], state: FileSystem.Descriptor) throws(SystemError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let bytes = Array((try? encoder.encode(RememberedFile(titles: titles))) ?? Data())
        try replaceFile(rememberedName, in: state, with: bytes, state: state)
    }

    /// Atomically replaces (or creates) `name` in `directory` with `bytes`: written and flushed in
    /// `staging/` first, then renamed over, then the directory is flushed.
    static func replaceFile(
        _ name: String, in directory: FileSystem.Descriptor, with bytes: [UInt8], state: FileSystem.Descriptor
    ) throws(SystemError) {
        let staging = try openStaging(state: state)
        defer { FileSystem.close(staging) }
        let temporary = stagingName(kind: "file")
        try FileSystem.createFile(temporary, in: staging, bytes: bytes)
        do {
            try FileSystem.renameReplacing(temporary, in: staging, to: name, in: directory)
        } catch {
            try? FileSystem.unlink(temporary, in: staging)
            throw error
        }
        try FileSystem.fsync(directory)
    }

    /// A fresh name in `staging/` owned by this process (a ``StagingName``).
    static func stagingName(kind: String) -> String { StagingName(kind: kind).fileName }

    /// Where the owner files of processes writing into this library are (``ProcessOwner``).
    static func owners(state: FileSystem.Descriptor) -> String { state.path + "/owners" }

    /// Whether a staging entry may belong to a running process: only entries whose ``StagingName``
    /// names an owner proved dead are not (names AlbumKit did not make are never touched).
    static func isOwnedByLiveProcess(_ name: String, state: FileSystem.Descriptor) -> Bool {
        guard let staged = StagingName(parsing: name) else { return true }
        return ProcessOwner.isAlive(staged.owner, in: owners(state: state))
    }

    /// Removes what dead processes left in `staging/` (files never published, half-made album
    /// folders, markers, albums being deleted). Returns the names removed.
    @discardableResult
    static func sweep(root: FileSystem.Descriptor) -> [String] {
        guard let state = try? open(root: root) else { return [] }
        defer { FileSystem.close(state) }
        guard let staging = try? FileSystem.openDirectory(stagingName, in: state) else { return [] }
        defer { FileSystem.close(staging) }
        var removed: [String] = []
        for name in (try? FileSystem.names(in: staging)) ?? [] where !isOwnedByLiveProcess(name, state: state) {
            if name.hasSuffix(".aside") {
                // An album folder moved aside by a delete that never finished: move it back first.
                guard restoreAside(note: name, staging: staging, root: root) else { continue }
            }
            if (try? FileSystem.removeTree(name, in: staging)) != nil { removed.append(name) }
        }
        // Owner files of processes that are gone and left nothing behind.
        let directory = owners(state: state)
        let left = Set(((try? FileSystem.names(in: staging)) ?? []).compactMap { StagingName(parsing: $0)?.owner })
        for owner in ProcessOwner.owners(in: directory) where !left.contains(owner) {
            if !ProcessOwner.isAlive(owner, in: directory) { ProcessOwner.forget(owner, in: directory) }
        }
        return removed
    }

    /// Moves the folder a `.aside` note describes back to its name (`name 2`, … when taken);
    /// `true` when nothing is left aside (moved back, or it had already gone to the Trash).
    static func restoreAside(note: String, staging: FileSystem.Descriptor, root: FileSystem.Descriptor) -> Bool {
        guard let bytes = try? FileSystem.readSmallFile(note, in: staging),
            let record = try? JSONDecoder().decode(FolderAside.Note.self, from: Data(bytes))
        else { return true }  // an empty note: the crash came before the folder was moved
        let parentPath = FolderAlbumPath(components: record.parent.split(separator: "/").map(String.init))
        guard let parent = try? FileSystem.openDirectory(parentPath, in: root) else { return false }
        defer { FileSystem.close(parent) }
        guard FileSystem.fileStatus(of: record.aside, in: parent) != nil else { return true }
        for attempt in 1...10_000 {
            let target = FolderNaming.folderName(record.folder, attempt: attempt)
            guard let failure = FileSystem.tryRename(record.aside, in: parent, to: target, in: parent) else {
                try? FileSystem.fsync(parent)
                return true
            }
            if failure.errno != EEXIST && failure.errno != ENOTEMPTY { return false }
        }
        return false
    }

    /// Staging entries of dead processes, without removing them (for `verify`).
    static func leftovers(root: FileSystem.Descriptor) -> [String] {
        guard let state = try? open(root: root) else { return [] }
        defer { FileSystem.close(state) }
        guard let staging = try? FileSystem.openDirectory(stagingName, in: state) else { return [] }
        defer { FileSystem.close(staging) }
        return ((try? FileSystem.names(in: staging)) ?? []).filter { !isOwnedByLiveProcess($0, state: state) }.sorted()
    }
}
