#if !canImport(ObjectiveC)
    import Foundation

    /// The abstract base class of Photos model objects.
    ///
    /// Model objects are immutable snapshots: a `PHAssetCollection` fetched before the user
    /// renamed the album keeps the old title. Equality and hashing use `localIdentifier`,
    /// so a placeholder compares equal to the object it stands for.
    // @unchecked Sendable: NSObject is not Sendable on Linux. PHObject and every subclass
    // store only `let` properties of Sendable types (snapshots copied out of the library's
    // Mutex-protected state), so instances are immutable and safe to share, as Photos
    // declares them (NS_SWIFT_SENDABLE).
    public class PHObject: NSObject, NSCopying, @unchecked Sendable {
        private let identifier: String
        /// How many times the object changed in the library before this snapshot was taken; two
        /// snapshots of one object with different revisions differ in content (change details).
        let revision: Int

        /// The unique, persistent identifier of the object in this library.
        public var localIdentifier: String { identifier }

        init(localIdentifier: String, revision: Int = 0) {
            self.identifier = localIdentifier
            self.revision = revision
        }

        /// Returns `self`: model objects are immutable.
        public func copy(with zone: NSZone? = nil) -> Any { self }

        /// `true` when `object` is a Photos object with the same local identifier.
        public override func isEqual(_ object: Any?) -> Bool {
            guard let other = object as? PHObject else { return false }
            return other.identifier == identifier
        }

        /// A hash of the local identifier.
        public override var hash: Int { identifier.hashValue }

        /// The class name and local identifier.
        public override var description: String { "<\(type(of: self)): \(identifier)>" }
    }
#endif
