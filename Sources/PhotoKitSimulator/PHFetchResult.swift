#if !canImport(ObjectiveC)
    import Foundation

    /// An ordered list of objects returned by a fetch: a snapshot.
    ///
    /// Its contents never change after the fetch; fetch again to see later changes.
    /// Like Photos' class it is not a `Sequence`: enumerate with `enumerateObjects` or by index.
    // @unchecked Sendable: NSObject is not Sendable on Linux and `ObjectType` is unconstrained
    // (as in Photos). The stored properties are an immutable `let` array and an immutable
    // `let` closure that performs the same fetch again on a state passed to it (capturing only
    // the fetch's scope and a private copy of its options, which nothing mutates); the simulator
    // only creates fetch results of its own immutable, Sendable PHObject subclasses (the
    // initializer is internal), so sharing a fetch result across threads is safe.
    public final class PHFetchResult<ObjectType: AnyObject>: NSObject, NSCopying, NSFastEnumeration, @unchecked Sendable
    {
        private let objects: [ObjectType]
        /// Performs the same fetch on a library state (for change details); `nil` for results
        /// that are no fetch (built by hand).
        let refetch: ((inout LibraryState) -> [ObjectType])?

        init(objects: [ObjectType], refetch: ((inout LibraryState) -> [ObjectType])? = nil) {
            self.objects = objects
            self.refetch = refetch
        }

        /// The number of objects.
        public var count: Int { objects.count }

        /// The object at `index`; traps when `index` is out of range (Photos raises a range exception).
        @discardableResult
        public func object(at index: Int) -> ObjectType {
            precondition(
                objects.indices.contains(index),
                "PHFetchResult index \(index) beyond bounds [0 .. \(objects.count - 1)]")
            return objects[index]
        }

        /// The object at `idx`.
        public subscript(idx: Int) -> ObjectType { object(at: idx) }

        /// Whether the result contains an object equal to `anObject`.
        @discardableResult
        public func contains(_ anObject: ObjectType) -> Bool {
            index(of: anObject) != NSNotFound
        }

        /// The index of the first object equal to `anObject`, or `NSNotFound`.
        @discardableResult
        public func index(of anObject: ObjectType) -> Int {
            index(of: anObject, in: NSRange(location: 0, length: objects.count))
        }

        /// The index of the first object equal to `anObject` within `range`, or `NSNotFound`.
        @discardableResult
        public func index(of anObject: ObjectType, in range: NSRange) -> Int {
            let lower = max(0, range.location)
            let upper = min(objects.count, range.location + range.length)
            guard lower < upper else { return NSNotFound }
            for index in lower..<upper where Self.equal(objects[index], anObject) { return index }
            return NSNotFound
        }

        /// The first object, or `nil` when the result is empty.
        public var firstObject: ObjectType? { objects.first }

        /// The last object, or `nil` when the result is empty.
        public var lastObject: ObjectType? { objects.last }

        /// The objects at `indexes`.
        @discardableResult
        public func objects(at indexes: IndexSet) -> [ObjectType] {
            indexes.map { object(at: $0) }
        }

        /// Calls `block` for each object in order, synchronously; set the flag to `true` to stop.
        public func enumerateObjects(_ block: @escaping (ObjectType, Int, UnsafeMutablePointer<ObjCBool>) -> Void) {
            enumerate(Array(objects.indices), block)
        }

        /// Calls `block` for each object, synchronously; `.reverse` enumerates backwards.
        public func enumerateObjects(
            options opts: NSEnumerationOptions = [],
            using block: @escaping (ObjectType, Int, UnsafeMutablePointer<ObjCBool>) -> Void
        ) {
            let indices = Array(objects.indices)
            enumerate(opts.contains(.reverse) ? indices.reversed() : indices, block)
        }

        /// Calls `block` for the objects at `s`, synchronously; `.reverse` enumerates backwards.
        public func enumerateObjects(
            at s: IndexSet, options opts: NSEnumerationOptions = [],
            using block: @escaping (ObjectType, Int, UnsafeMutablePointer<ObjCBool>) -> Void
        ) {
            let indices = Array(s)
            enumerate(opts.contains(.reverse) ? indices.reversed() : indices, block)
        }

        /// The number of assets of `mediaType` (0 for results that hold no assets).
        @discardableResult
        public func countOfAssets(with mediaType: PHAssetMediaType) -> Int {
            objects.reduce(0) { $0 + (($1 as? PHAsset)?.mediaType == mediaType ? 1 : 0) }
        }

        /// Returns `self`: fetch results are immutable.
        public func copy(with zone: NSZone? = nil) -> Any { self }

        private func enumerate(_ indices: [Int], _ block: (ObjectType, Int, UnsafeMutablePointer<ObjCBool>) -> Void) {
            let stop = UnsafeMutablePointer<ObjCBool>.allocate(capacity: 1)
            stop.initialize(to: false)
            defer { stop.deallocate() }
            for index in indices {
                block(object(at: index), index, stop)
                if stop.pointee.boolValue { break }
            }
        }

        private static func equal(_ lhs: ObjectType, _ rhs: ObjectType) -> Bool {
            if let lhs = lhs as? NSObject { return lhs.isEqual(rhs) }
            return lhs === rhs
        }
    }

    extension PHFetchResult: FastEnumerationElements {
        var fastEnumerationElements: [Any] { objects }
    }
#endif
