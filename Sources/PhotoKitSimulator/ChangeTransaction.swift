#if !canImport(ObjectiveC)
    import Foundation
    import Synchronization

    /// The change block being run: change requests record into it while it is open.
    ///
    /// Bound as a task-local (on the change queue's thread) while the block runs, so the
    /// static change-request constructors find it, and closed when the block returns, so
    /// requests used later trap as Photos raises an exception.
    final class ChangeTransaction: Sendable {
        /// The transaction of the change block running on this thread, if any.
        @TaskLocal static var current: ChangeTransaction?

        /// Photos' exception reason for change requests used outside a change block.
        static let outsideChangeBlockMessage =
            "This method can only be called from inside of "
            + "-[PHPhotoLibrary performChanges:completionHandler:] or -[PHPhotoLibrary performChangesAndWait:error:]"

        /// The library the block changes.
        let library: PHPhotoLibrary
        /// The change block's number in the library (1 for the first).
        let number: Int

        private struct Storage {
            var isOpen = true
            var contents = ChangeContents()
        }

        private let storage = Mutex(Storage())

        init(library: PHPhotoLibrary, number: Int) {
            self.library = library
            self.number = number
        }

        /// The open transaction of the current change block; traps outside a change block.
        static func requireCurrent() -> ChangeTransaction {
            guard let transaction = current, transaction.isOpen else {
                preconditionFailure(outsideChangeBlockMessage)
            }
            return transaction
        }

        /// Whether the block is still running.
        var isOpen: Bool { storage.withLock { $0.isOpen } }

        /// Records a change; traps unless called from inside this transaction's change block.
        func record(_ change: (inout ChangeContents) -> Void) {
            guard Self.current === self else { preconditionFailure(Self.outsideChangeBlockMessage) }
            storage.withLock { storage in
                guard storage.isOpen else { preconditionFailure(Self.outsideChangeBlockMessage) }
                change(&storage.contents)
            }
        }

        /// Reads the recorded changes.
        func read<Result: Sendable>(_ body: (ChangeContents) -> Result) -> Result {
            storage.withLock { body($0.contents) }
        }

        /// Ends the block and returns what it recorded.
        func close() -> ChangeContents {
            storage.withLock { storage in
                storage.isOpen = false
                return storage.contents
            }
        }
    }
#endif
