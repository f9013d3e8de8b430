import AlbumKitCore
import Foundation

/// The name of a process's next lone save into a library, listed as being published before that
/// save begins, so that the save waits for no flush of the publishing list.
///
/// A save may give its file a name only once the name is listed, durably, in the process's
/// publishing list (``ProcessOwner/notePublishing(_:in:)``): otherwise a power loss could keep
/// the name and lose the list, and the file would be a stray no one could prove was never a
/// user's. Listing costs one flush of the list, which a lone save listing its own name waits for
/// before its file's flush can begin: one flush more than the least a catalog must do (the file,
/// its name, the record).
///
/// So after a process's second lone save into a library (a process saving photos one by one, not
/// a command saving one photo and exiting), once that save is acknowledged, the next one's id is
/// drawn and its name listed and flushed. The next lone save into the same shard folder, of a
/// file of the same type, takes that name instead of listing one; any other save lists its own,
/// as before. A name listed and never given names no file: recovery finds nothing to remove, and
/// the name is taken off the list when the library is closed (``drop(owners:)``).
///
/// ```swift
/// let names = NamesListedAhead()
/// names.listNext(afterSaving: "3f", fileExtension: "jpg", owners: ownersPath)   // after a lone save
/// names.take(shard: "3f", fileExtension: "jpg")?.relativePath    // "originals/3f/9f2c41d0-….jpg"
/// ```
final class NamesListedAhead: Sendable {
    /// A name listed, durably, for a lone save to come.
    struct Name: Sendable, Equatable {
        /// The asset id the save records, and its file's name without the extension.
        let id: String
        let shard: String
        let fileExtension: String

        var fileName: String { "\(id).\(fileExtension)" }
        var relativePath: String { "originals/\(shard)/\(fileName)" }
    }

    /// The name waiting for the next lone save, and how many lone saves this process made here.
    private let state = Locked<(waiting: Name?, loneSaves: Int)>((nil, 0))

    /// Takes the name waiting, when it was listed for a lone save into `shard` of a file ending in
    /// `fileExtension`; it is then no longer waiting.
    func take(shard: String, fileExtension: String) -> Name? {
        state.withLock { state in
            guard let name = state.waiting, name.shard == shard, name.fileExtension == fileExtension else {
                return nil
            }
            state.waiting = nil
            return name
        }
    }

    /// Called on the commit's thread after a lone save into `shard` of a file ending in
    /// `fileExtension` was acknowledged and its own name taken off the list: from the process's
    /// second lone save on, lists the next one's name there (flushed) and keeps it waiting, unless
    /// one is waiting there already; a name waiting for another folder or type is taken off the list.
    func listNext(afterSaving shard: String, fileExtension: String, owners: String) {
        let due = state.withLock { state -> Bool in
            state.loneSaves += 1
            let ready = state.waiting.map { $0.shard == shard && $0.fileExtension == fileExtension } ?? false
            return state.loneSaves >= 2 && !ready
        }
        guard due else { return }
        let name = Name(id: RandomID.make(), shard: shard, fileExtension: fileExtension)
        do throws(SystemError) {
            try ProcessOwner.notePublishing([name.relativePath], in: owners)
        } catch {
            // Not listed: the next lone save lists its own name (and meets the failure, if it lasts).
            return
        }
        let replaced = state.withLock { state -> Name? in
            defer { state.waiting = name }
            return state.waiting
        }
        // One for another folder or type (the clock moved to the next folder): no longer waited for.
        if let replaced { ProcessOwner.clearPublishing([replaced.relativePath], in: owners) }
    }

    /// Takes the waiting name off the list (the library is being closed).
    func drop(owners: String) {
        guard
            let name = state.withLock({ state -> Name? in
                defer { state.waiting = nil }
                return state.waiting
            })
        else { return }
        ProcessOwner.clearPublishing([name.relativePath], in: owners)
    }
}
