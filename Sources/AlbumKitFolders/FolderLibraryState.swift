import AlbumKitCore
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
///   their name, markers being replaced, notes (`.aside`) naming album folders moved aside
///   while being deleted, and notes (`.foreign`) naming folders on another file system where the
///   process stages hidden entries itself. Entries carry the owning process's token
///   (``StagingName``); ``sweep(root:)`` moves the folders of dead processes' `.aside` notes back
///   and removes their hidden entries from the folders of their `.foreign` notes, then removes
///   their entries, and forgets an owner only once nothing of it is left;
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
        // Remembered titles are a hint: unreadable, the albums are found by their folders and markers.
        guard let state, let bytes = try? FileSystem.readSmallFile(rememberedName, in: state, limit: 16 << 20),
            let file = try? JSONDecoder().decode(RememberedFile.self, from: Data(bytes))
        else { return [:] }
        return file.titles
    }

    /// Replaces the remembered albums atomically (write a staged copy, flush, rename over).
    static func saveRemembered(_ titles: [String: Remembered], state: FileSystem.Descriptor) throws(SystemError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding a dictionary of strings cannot fail.
        let bytes = Array((try? encoder.encode(RememberedFile(titles: titles))) ?? Data())
        try replaceFile(rememberedName, in: state, with: bytes, state: state)
    }

    /// Atomically replaces (or creates) `name` in `directory` with `bytes`: written and flushed in
    /// `staging/` first, then renamed over, then the directory is flushed.
    ///
    /// When `directory` is on another file system than `staging/` (an album folder on a card
    /// mounted inside the library), a rename cannot cross: the file is written under a hidden
    /// ``StagingName`` in `directory` itself, after ``recordForeignStaging(in:at:staging:state:)``
    /// noted that folder, so recovery can remove it if the process dies in between.
    ///
    /// - Parameter folder: `directory`'s path below the root, needed when it may be on another
    ///   file system; without it such a directory fails with `EXDEV`.
    static func replaceFile(
        _ name: String, in directory: FileSystem.Descriptor, at folder: FolderAlbumPath? = nil, with bytes: [UInt8],
        state: FileSystem.Descriptor
    ) throws(SystemError) {
        let staging = try openStaging(state: state)
        var hiding = staging
        if try FileSystem.fileStatus(of: directory).device != FileSystem.fileStatus(of: staging).device {
            guard let folder else { throw SystemError("rename", path: directory.path + "/" + name, errno: EXDEV) }
            try recordForeignStaging(in: directory, at: folder, staging: staging, state: state)
            hiding = directory
        }
        let temporary = stagingName(kind: "file")
        try FileSystem.createFile(temporary, in: hiding, bytes: bytes)
        do {
            try FileSystem.renameReplacing(temporary, in: hiding, to: name, in: directory)
        } catch {
            // Cleanup of our own staged file; the rename error is what matters.
            try? FileSystem.unlink(temporary, in: hiding)
            throw error
        }
        try FileSystem.fsync(directory)
    }

    /// What a `.foreign` note in `staging/` records: a folder below the root, on another file
    /// system than `staging/`, where its owner may stage hidden entries (``StagingName``s).
    struct ForeignNote: Codable {
        /// The folder's path below the root, one name per level (empty: the root itself).
        var folder: [String]
    }

    /// The `.foreign` notes this process wrote, by library state folder and album folder (path,
    /// device and inode): each folder is noted once per process.
    private static let foreignNotes = Locked<[String: String]>([:])

    /// Notes, durably and before this process stages anything there, that it may leave hidden
    /// entries in `folder` (at `path` below the root), a folder on another file system than
    /// `staging/`. The note is an entry of this process in `staging/` (`.<owner>.<uuid>.foreign`),
    /// so ``sweep(root:)`` finds it once the process is gone, removes this owner's entries from the
    /// folder, and only then the note and the owner's record. Cheap after the first call for a
    /// folder (one `fstatat`).
    static func recordForeignStaging(
        in folder: FileSystem.Descriptor, at path: FolderAlbumPath, staging: FileSystem.Descriptor,
        state: FileSystem.Descriptor
    ) throws(SystemError) {
        let info = try FileSystem.fileStatus(of: folder)
        let key = [state.path, path.relative, "\(info.device):\(info.inode)"].joined(separator: "\u{0}")
        if let noted = foreignNotes.withLock({ $0[key] }), FileSystem.status(of: noted, in: staging) != nil { return }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding an array of strings cannot fail.
        let bytes = Array((try? encoder.encode(ForeignNote(folder: path.components))) ?? Data())
        let note = stagingName(kind: "foreign")
        try FileSystem.createFile(note, in: staging, bytes: bytes)  // flushed
        try FileSystem.fsync(staging)  // the note's name too, before anything is staged there
        foreignNotes.withLock { $0[key] = note }
    }

    /// Opens (creating) `staging/` and notes `folder` with
    /// ``recordForeignStaging(in:at:staging:state:)`` when it is on another file system.
    static func prepareStaging(
        in folder: FileSystem.Descriptor, at path: FolderAlbumPath, state: FileSystem.Descriptor
    ) throws(SystemError) {
        let staging = try openStaging(state: state)
        if try FileSystem.fileStatus(of: folder).device != FileSystem.fileStatus(of: staging).device {
            try recordForeignStaging(in: folder, at: path, staging: staging, state: state)
        }
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
        // Best effort at open (each `try?` below): what it cannot read or remove stays for the next
        // open to retry, and `verify` reports it as a leftover.
        guard let state = try? open(root: root) else { return [] }
        // (best effort, as above)
        guard let staging = try? FileSystem.openDirectory(stagingName, in: state) else { return [] }
        var removed: [String] = []
        // (best effort, as above)
        for name in (try? FileSystem.names(in: staging)) ?? [] where !isOwnedByLiveProcess(name, state: state) {
            if name.hasSuffix(".aside") {
                // An album folder moved aside by a delete that never finished: move it back first.
                guard restoreAside(note: name, staging: staging, root: root) else { continue }
            }
            if name.hasSuffix(".foreign") {
                // A folder on another file system the owner staged into: clean it first; the note
                // (and so the owner's record) stays until that worked.
                guard removeForeignLeftovers(note: name, staging: staging, root: root) else { continue }
            }
            if (try? FileSystem.removeTree(name, in: staging)) != nil { removed.append(name) }  // else: next open
        }
        // Owner files of processes that are gone and left nothing behind.
        let directory = owners(state: state)
        // Unlistable: no owner is forgotten this time (they are forgotten only when nothing is left).
        let left = Set(((try? FileSystem.names(in: staging)) ?? []).compactMap { StagingName(parsing: $0)?.owner })
        for owner in ProcessOwner.owners(in: directory) where !left.contains(owner) {
            if !ProcessOwner.isAlive(owner, in: directory) { ProcessOwner.forget(owner, in: directory) }
        }
        return removed
    }

    /// Moves the folder a `.aside` note describes back to its name (`name 2`, … when taken);
    /// `true` when nothing is left aside (moved back, or it had already gone to the Trash).
    static func restoreAside(note: String, staging: FileSystem.Descriptor, root: FileSystem.Descriptor) -> Bool {
        // An unreadable or torn note is what a crash before the move leaves (the folder was never moved).
        guard let bytes = try? FileSystem.readSmallFile(note, in: staging),
            let record = try? JSONDecoder().decode(FolderAside.Note.self, from: Data(bytes))
        else { return true }  // an empty note: the crash came before the folder was moved
        let parentPath = FolderAlbumPath(components: record.parent.split(separator: "/").map(String.init))
        // The parent cannot be opened: keep the note, the next sweep retries.
        guard let parent = try? FileSystem.openDirectory(parentPath, in: root) else { return false }
        guard FileSystem.fileStatus(of: record.aside, in: parent) != nil else { return true }
        for attempt in 1...10_000 {
            let target = FolderNaming.folderName(record.folder, attempt: attempt)
            guard let failure = FileSystem.tryRename(record.aside, in: parent, to: target, in: parent) else {
                // Best-effort flush: a rename lost with the power leaves the note, so the next sweep redoes it.
                try? FileSystem.fsync(parent)
                return true
            }
            if failure.errno != EEXIST && failure.errno != ENOTEMPTY { return false }
        }
        return false
    }

    /// Removes, from the folder a dead owner's `.foreign` note names, the hidden entries that owner
    /// staged there: only names that parse as a ``StagingName`` of that very owner, never anything
    /// else. `true` when none is left (removed, or the folder is gone); `false` keeps the note for
    /// the next open (the folder could not be read, or an entry not removed).
    static func removeForeignLeftovers(note: String, staging: FileSystem.Descriptor, root: FileSystem.Descriptor)
        -> Bool
    {
        guard let owner = StagingName(parsing: note)?.owner,
            // An unreadable or torn note is what a crash before staging leaves (nothing was staged).
            let bytes = try? FileSystem.readSmallFile(note, in: staging),
            let record = try? JSONDecoder().decode(ForeignNote.self, from: Data(bytes))
        else { return true }  // an empty note: the crash came before anything was staged there
        let folder: FileSystem.Descriptor
        do {
            folder = try FileSystem.openDirectory(FolderAlbumPath(components: record.folder), in: root)
        } catch {
            // Gone (deleted, or replaced by a symlink AlbumKit never follows): nothing to reach.
            return error.errno == ENOENT || error.errno == ENOTDIR || error.errno == ELOOP
        }
        // Cannot list it: keep the note (`false`), the next sweep retries.
        guard let names = try? FileSystem.names(in: folder) else { return false }
        var clean = true
        for name in names where StagingName(parsing: name)?.owner == owner {
            // What cannot be removed keeps the note (`clean` false), so the next sweep retries.
            if (try? FileSystem.removeTree(name, in: folder)) == nil { clean = false }
        }
        // Best-effort flush: a removal lost with the power leaves the note, so the next sweep redoes it.
        try? FileSystem.fsync(folder)
        return clean
    }

    /// Staging entries of dead processes, without removing them (for `verify`): none when nothing
    /// was ever staged; throws when the staging folder is there but cannot be read, so that
    /// `verify` says so instead of reporting no leftovers it did not look for.
    static func leftovers(root: FileSystem.Descriptor) throws(SystemError) -> [String] {
        guard let state = try open(root: root) else { return [] }
        let staging: FileSystem.Descriptor
        do {
            staging = try FileSystem.openDirectory(stagingName, in: state)
        } catch  where error.errno == ENOENT {
            return []
        }
        return try FileSystem.names(in: staging).filter { !isOwnedByLiveProcess($0, state: state) }.sorted()
    }
}
