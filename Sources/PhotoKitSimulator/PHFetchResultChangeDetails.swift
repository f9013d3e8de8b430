#if !canImport(ObjectiveC)
    import Foundation

    /// The differences between a fetch result the app holds and the same fetch performed now.
    ///
    /// Removed indexes refer to the result before the change; inserted and changed indexes to the
    /// result after it, as Photos documents. An object is changed when it is in both results and its
    /// content differs (the simulator compares each object's revision).
    // Not Sendable: Apple's declaration does not say it is (the stricter choice).
    public class PHFetchResultChangeDetails<ObjectType: PHObject>: NSObject {
        /// The fetch result the app held.
        public let fetchResultBeforeChanges: PHFetchResult<ObjectType>
        /// The same fetch performed after the change.
        public let fetchResultAfterChanges: PHFetchResult<ObjectType>
        /// The indexes of removed objects, in the result before the change.
        public let removedIndexes: IndexSet?
        /// The objects removed.
        public let removedObjects: [ObjectType]
        /// The indexes of inserted objects, in the result after the change.
        public let insertedIndexes: IndexSet?
        /// The objects inserted.
        public let insertedObjects: [ObjectType]
        /// The indexes of changed objects, in the result after the change.
        public let changedIndexes: IndexSet?
        /// The objects whose content or metadata changed (their new snapshots).
        public let changedObjects: [ObjectType]
        private let moves: [(Int, Int)]
        private let isIncremental: Bool

        /// Whether the indexes and objects describe the change. `false` when the change was too
        /// large to describe (the simulator: more objects than ``PhotoKitSimulation/incrementalChangeLimit``);
        /// the index sets are then `nil`, the object lists empty and no moves are enumerated: reload
        /// from ``fetchResultAfterChanges``.
        public var hasIncrementalChanges: Bool { isIncremental }

        /// Whether objects that stayed changed places.
        public var hasMoves: Bool { !moves.isEmpty }

        /// Calls `handler` with each move's index before and after.
        public func enumerateMoves(_ handler: @escaping (Int, Int) -> Void) {
            for (from, to) in moves { handler(from, to) }
        }

        /// The differences between two fetch results; `changedObjects` are noted as changed too.
        public convenience init(
            from fromResult: PHFetchResult<ObjectType>, to toResult: PHFetchResult<ObjectType>,
            changedObjects: [ObjectType]
        ) {
            self.init(before: fromResult, after: toResult, noted: Set(changedObjects.map(\.localIdentifier)))
        }

        /// Details that describe nothing but the results before and after (not incremental).
        init(withoutDetailsFrom before: PHFetchResult<ObjectType>, to after: PHFetchResult<ObjectType>) {
            fetchResultBeforeChanges = before
            fetchResultAfterChanges = after
            removedIndexes = nil
            removedObjects = []
            insertedIndexes = nil
            insertedObjects = []
            changedIndexes = nil
            changedObjects = []
            moves = []
            isIncremental = false
        }

        private init(before: PHFetchResult<ObjectType>, after: PHFetchResult<ObjectType>, noted: Set<String>) {
            let old = (0..<before.count).map { before.object(at: $0) }
            let new = (0..<after.count).map { after.object(at: $0) }
            let oldIndex = Dictionary(
                old.enumerated().map { ($1.localIdentifier, $0) }, uniquingKeysWith: { a, _ in a })
            let newIDs = Set(new.map(\.localIdentifier))
            var removed = IndexSet()
            for (index, object) in old.enumerated() where !newIDs.contains(object.localIdentifier) {
                removed.insert(index)
            }
            var inserted = IndexSet()
            var changed = IndexSet()
            var moves: [(Int, Int)] = []
            var stayedBefore: [Int] = []
            for (index, object) in new.enumerated() {
                guard let was = oldIndex[object.localIdentifier] else {
                    inserted.insert(index)
                    continue
                }
                stayedBefore.append(was)
                if old[was].revision != object.revision || noted.contains(object.localIdentifier) {
                    changed.insert(index)
                }
            }
            // Objects that stayed but are no longer in their relative order moved.
            let sorted = stayedBefore.sorted()
            let stayedAfter = new.indices.filter { !inserted.contains($0) }
            for (position, was) in stayedBefore.enumerated() where sorted[position] != was {
                moves.append((was, stayedAfter[position]))
            }
            fetchResultBeforeChanges = before
            fetchResultAfterChanges = after
            removedIndexes = removed
            removedObjects = removed.map { old[$0] }
            insertedIndexes = inserted
            insertedObjects = inserted.map { new[$0] }
            changedIndexes = changed
            changedObjects = changed.map { new[$0] }
            self.moves = moves
            isIncremental = true
        }

        /// How many objects the details describe as removed, inserted or changed.
        var describedCount: Int { removedObjects.count + insertedObjects.count + changedObjects.count }

        /// Whether nothing differs.
        var isEmpty: Bool {
            removedObjects.isEmpty && insertedObjects.isEmpty && changedObjects.isEmpty && moves.isEmpty
        }
    }
#endif
