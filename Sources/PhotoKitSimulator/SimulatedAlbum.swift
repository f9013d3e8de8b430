#if !canImport(ObjectiveC)
    import Foundation

    /// A user album in the simulated library, for inspection by tests.
    public struct SimulatedAlbum: Sendable, Hashable {
        /// The album's local identifier.
        public let localIdentifier: String
        /// The album's current title (titles need not be unique).
        public let title: String
        /// The member assets' local identifiers, in album order.
        public let assetLocalIdentifiers: [String]
        /// The album's position in creation order, counting every album this library ever
        /// created (0 for the first), so deleted albums leave gaps.
        public let creationIndex: Int
        /// When the album was created.
        public let creationDate: Date
        /// Whether an app created the album through a change request (as opposed to the user).
        public let isCreatedByApp: Bool
    }
#endif
