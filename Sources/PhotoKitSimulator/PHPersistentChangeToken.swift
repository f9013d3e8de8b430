#if !canImport(ObjectiveC)
    import Foundation

    /// A position in the library's persistent change history (iOS 16, macOS 13): keep it (it
    /// supports secure coding, so `NSKeyedArchiver` archives it) and pass it to
    /// `PHPhotoLibrary.fetchPersistentChanges(since:)` on a later launch.
    ///
    /// Photos documents the token as opaque; the simulator's holds the library's identity and the
    /// number of changes recorded before it.
    public final class PHPersistentChangeToken: NSObject, NSCopying, NSSecureCoding, Sendable {
        /// The simulated library the token belongs to.
        let libraryIdentifier: String
        /// How many changes the history had recorded when the token was made.
        let position: Int

        init(libraryIdentifier: String, position: Int) {
            self.libraryIdentifier = libraryIdentifier
            self.position = position
        }

        /// Tokens are archived with secure coding only.
        public static var supportsSecureCoding: Bool { true }

        /// Writes the token into an archive.
        public func encode(with coder: NSCoder) {
            coder.encode(libraryIdentifier as NSString, forKey: "library")
            coder.encode(position, forKey: "position")
        }

        /// Reads a token back from an archive; `nil` when the archive holds no token.
        public init?(coder: NSCoder) {
            guard let library = coder.decodeObject(of: NSString.self, forKey: "library") else { return nil }
            libraryIdentifier = library as String
            position = coder.decodeInteger(forKey: "position")
        }

        /// Returns `self`: tokens are immutable.
        public func copy(with zone: NSZone? = nil) -> Any { self }

        /// Tokens at the same position of the same library are equal.
        public override func isEqual(_ object: Any?) -> Bool {
            guard let other = object as? PHPersistentChangeToken else { return false }
            return other.libraryIdentifier == libraryIdentifier && other.position == position
        }

        /// Consistent with ``isEqual(_:)``.
        public override var hash: Int { libraryIdentifier.hashValue ^ position }
    }
#endif
