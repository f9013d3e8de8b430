#if !canImport(ObjectiveC)
    /// What a commit does when a change request refers to an album or asset that no longer
    /// exists (for example, the user deleted the album after the app fetched it).
    ///
    /// Photos does not document this case; the simulator fails the whole block by default.
    public enum StaleReferencePolicy: Sendable, Equatable {
        /// The whole block fails with this code and nothing is committed. The error's
        /// `userInfo[PHLocalIdentifiersErrorKey]` lists the missing identifiers.
        case fail(PHPhotosError.Code)
        /// The requests about missing objects are dropped; the rest of the block commits.
        case ignore
    }
#endif
