#if !canImport(ObjectiveC)
    import Foundation

    /// The persistent changes since a token, oldest first (iOS 16, macOS 13). As in Photos' Swift
    /// overlay, it is a `Sequence` of ``PHPersistentChange``.
    // Not Sendable: Apple's declaration does not say it is (the stricter choice).
    public final class PHPersistentChangeFetchResult: NSObject, Sequence {
        private let changes: [PHPersistentChange]

        init(changes: [PHPersistentChange]) {
            self.changes = changes
        }

        /// Iterates the changes in the order they happened.
        public final class Iterator: IteratorProtocol {
            private var remaining: ArraySlice<PHPersistentChange>

            /// An iterator over `fetchResult`'s changes.
            public init(fetchResult: PHPersistentChangeFetchResult) {
                remaining = fetchResult.changes[...]
            }

            /// The next change, or `nil` after the last.
            public func next() -> PHPersistentChange? { remaining.popFirst() }
        }

        /// An iterator over the changes.
        public func makeIterator() -> Iterator { Iterator(fetchResult: self) }
    }
#endif
