#if !canImport(ObjectiveC)
    /// What an app with `.limited` read-write access may do with albums.
    ///
    /// Apple's documentation says nothing about albums under limited access; public reports say
    /// apps can create albums then. Both outcomes are scriptable, so code must handle either.
    public enum LimitedAccessAlbums: Sendable, Hashable {
        /// Album fetches are empty and change blocks that touch an album fail with
        /// `.accessUserDenied` (the default).
        case refused
        /// The app sees every user album (with only the assets it may see) and may create albums
        /// and add assets to them.
        case allowed
    }
#endif
