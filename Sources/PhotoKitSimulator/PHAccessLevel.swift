#if !canImport(ObjectiveC)
    /// The level of access an app requests to the photo library.
    ///
    /// Raw values match Photos (`PHAccessLevelAddOnly = 1`, `PHAccessLevelReadWrite = 2`).
    public enum PHAccessLevel: Int, Sendable, Hashable {
        /// The app may only add to the user's photo library.
        case addOnly = 1
        /// The app may read and change the user's photo library.
        case readWrite = 2
    }
#endif
