/// Assets found alike, of one class, the one to keep first.
///
/// ```swift
/// for group in groups where group.kind == .samePicture {
///     print(group.keep.name, "kept;", group.extras.map(\.name), "could go")
/// }
/// ```
package struct DuplicateGroup: Sendable, Hashable {
    /// How alike the members are.
    package enum Kind: String, Sendable, Hashable, CaseIterable {
        /// The same bytes (the same SHA-256) held more than once.
        case sameFile = "same-file"
        /// One shot in several files: resized, recompressed, EXIF stripped, another format.
        case samePicture = "same-picture"
        /// Close but different pictures: frames of a burst, shots a moment apart, an edit.
        case similar
    }

    /// The class of the group.
    package var kind: Kind
    /// Its members, the best first (``DuplicateFinder/isBetter(_:than:)``): for `sameFile` and
    /// `samePicture` groups the one to keep; `similar` groups are only listed.
    package var members: [DuplicateCandidate]
    /// Whether a `similar` group is frames of a burst (``ShotEvidence/burstNeighbours(_:_:)``).
    package var isBurst: Bool

    /// A group of `members` (given best first).
    package init(kind: Kind, members: [DuplicateCandidate], isBurst: Bool = false) {
        self.kind = kind
        self.members = members
        self.isBurst = isBurst
    }

    /// The member to keep.
    package var keep: DuplicateCandidate { members[0] }

    /// The members that could be removed (every one but ``keep``); none for `similar` groups.
    package var extras: [DuplicateCandidate] { kind == .similar ? [] : Array(members.dropFirst()) }
}
