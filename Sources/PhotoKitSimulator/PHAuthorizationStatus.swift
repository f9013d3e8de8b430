#if !canImport(ObjectiveC)
    /// The app's authorization to access the photo library.
    ///
    /// Raw values match Photos: 0 through 4.
    public enum PHAuthorizationStatus: Int, Sendable, Hashable {
        /// The user has not been asked yet.
        case notDetermined = 0
        /// The app is not allowed, and the user cannot change that (parental controls, MDM).
        case restricted = 1
        /// The user denied access.
        case denied = 2
        /// The user granted access.
        case authorized = 3
        /// The user granted access to a limited selection of assets (read-write level only).
        case limited = 4
    }
#endif
