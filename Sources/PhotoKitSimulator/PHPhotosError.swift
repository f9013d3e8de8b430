#if !canImport(ObjectiveC)
    import Foundation

    /// The error domain of Photos errors: `"PHPhotosErrorDomain"`.
    public let PHPhotosErrorDomain: String = "PHPhotosErrorDomain"

    /// The `userInfo` key whose value lists the local identifiers an error is about.
    public let PHLocalIdentifiersErrorKey: String = "PHLocalIdentifiersErrorKey"

    /// An error reported by Photos, bridged like Apple's `NS_ERROR_ENUM` import.
    ///
    /// The simulator always throws and reports this struct (never a bare `NSError`), so
    /// all of these work as they do on Apple platforms:
    /// ```swift
    /// catch PHPhotosError.accessUserDenied { … }
    /// catch let error as PHPhotosError { error.code }
    /// (error as NSError).code == 3311
    /// ```
    public struct PHPhotosError: _BridgedStoredNSError {
        /// The wrapped `NSError` (domain `PHPhotosErrorDomain`).
        public let _nsError: NSError

        /// Wraps an `NSError` of the Photos domain.
        public init(_nsError error: NSError) {
            precondition(error.domain == PHPhotosErrorDomain, "PHPhotosError requires the PHPhotosErrorDomain domain")
            self._nsError = error
        }

        /// The error domain, `PHPhotosErrorDomain`.
        public static var _nsErrorDomain: String { PHPhotosErrorDomain }

        /// Photos error codes. Raw values match Photos.
        public enum Code: Int, _ErrorCodeProtocol, Sendable, Hashable {
            /// The error type these codes belong to.
            public typealias _ErrorType = PHPhotosError

            /// An unknown, internal error.
            case internalError = -1
            /// The user cancelled an asset resource or editing request.
            case userCancelled = 3072
            /// The library's volume is not mounted.
            case libraryVolumeOffline = 3114
            /// The user moved, renamed or deleted the system photo library.
            case relinquishingLibraryBundleToWriter = 3142
            /// The user switched the system photo library.
            case switchingSystemPhotoLibrary = 3143
            /// Network access is required but was not allowed.
            case networkAccessRequired = 3164
            /// A network connection error.
            case networkError = 3169
            /// No object has the requested identifier.
            case identifierNotFound = 3201
            /// Several objects have the requested identifier.
            case multipleIdentifiersFound = 3202
            /// The change request is not supported as configured.
            case changeNotSupported = 3300
            /// The operation was interrupted (transient).
            case operationInterrupted = 3301
            /// Asset resource validation failed.
            case invalidResource = 3302
            /// A required asset resource is missing.
            case missingResource = 3303
            /// There is not enough storage space.
            case notEnoughSpace = 3305
            /// The request is not supported for this asset.
            case requestNotSupportedForAsset = 3306
            /// The request exceeds a limit (raw value not confirmed by an Apple header).
            case limitExceeded = 3307
            /// Access is restricted by system configuration.
            case accessRestricted = 3310
            /// The user denied access.
            case accessUserDenied = 3311
            /// The library is inside a File Provider sync root.
            case libraryInFileProviderSyncRoot = 5423
            /// The persistent change token expired.
            case persistentChangeTokenExpired = 3105
            /// Persistent change details are unavailable.
            case persistentChangeDetailsUnavailable = 3210
        }

        /// An unknown, internal error (-1).
        public static var internalError: Code { .internalError }
        /// The user cancelled (3072).
        public static var userCancelled: Code { .userCancelled }
        /// The library's volume is offline (3114).
        public static var libraryVolumeOffline: Code { .libraryVolumeOffline }
        /// The library is being relinquished to a writer (3142).
        public static var relinquishingLibraryBundleToWriter: Code { .relinquishingLibraryBundleToWriter }
        /// The system library is being switched (3143).
        public static var switchingSystemPhotoLibrary: Code { .switchingSystemPhotoLibrary }
        /// Network access is required (3164).
        public static var networkAccessRequired: Code { .networkAccessRequired }
        /// A network error (3169).
        public static var networkError: Code { .networkError }
        /// Identifier not found (3201).
        public static var identifierNotFound: Code { .identifierNotFound }
        /// Multiple identifiers found (3202).
        public static var multipleIdentifiersFound: Code { .multipleIdentifiersFound }
        /// Change not supported (3300).
        public static var changeNotSupported: Code { .changeNotSupported }
        /// Operation interrupted (3301).
        public static var operationInterrupted: Code { .operationInterrupted }
        /// Invalid resource (3302).
        public static var invalidResource: Code { .invalidResource }
        /// Missing resource (3303).
        public static var missingResource: Code { .missingResource }
        /// Not enough space (3305).
        public static var notEnoughSpace: Code { .notEnoughSpace }
        /// Request not supported for the asset (3306).
        public static var requestNotSupportedForAsset: Code { .requestNotSupportedForAsset }
        /// Limit exceeded (3307).
        public static var limitExceeded: Code { .limitExceeded }
        /// Access restricted (3310).
        public static var accessRestricted: Code { .accessRestricted }
        /// Access denied by the user (3311).
        public static var accessUserDenied: Code { .accessUserDenied }
        /// Library in a File Provider sync root (5423).
        public static var libraryInFileProviderSyncRoot: Code { .libraryInFileProviderSyncRoot }
        /// Persistent change token expired (3105).
        public static var persistentChangeTokenExpired: Code { .persistentChangeTokenExpired }
        /// Persistent change details unavailable (3210).
        public static var persistentChangeDetailsUnavailable: Code { .persistentChangeDetailsUnavailable }
        /// The deprecated alias of ``internalError`` (-1).
        @available(*, deprecated, renamed: "internalError")
        public static var invalid: Code { .internalError }
    }

    /// Deprecated constant for `PHPhotosError.Code.internalError` (-1).
    @available(*, deprecated, message: "Use PHPhotosError.Code.internalError")
    public var PHPhotosErrorInvalid: Int { PHPhotosError.Code.internalError.rawValue }
    /// Deprecated constant for `PHPhotosError.Code.userCancelled` (3072).
    @available(*, deprecated, message: "Use PHPhotosError.Code.userCancelled")
    public var PHPhotosErrorUserCancelled: Int { PHPhotosError.Code.userCancelled.rawValue }
    /// Deprecated constant for `PHPhotosError.Code.libraryVolumeOffline` (3114).
    @available(*, deprecated, message: "Use PHPhotosError.Code.libraryVolumeOffline")
    public var PHPhotosErrorLibraryVolumeOffline: Int { PHPhotosError.Code.libraryVolumeOffline.rawValue }
    /// Deprecated constant for `PHPhotosError.Code.relinquishingLibraryBundleToWriter` (3142).
    @available(*, deprecated, message: "Use PHPhotosError.Code.relinquishingLibraryBundleToWriter")
    public var PHPhotosErrorRelinquishingLibraryBundleToWriter: Int {
        PHPhotosError.Code.relinquishingLibraryBundleToWriter.rawValue
    }
    /// Deprecated constant for `PHPhotosError.Code.switchingSystemPhotoLibrary` (3143).
    @available(*, deprecated, message: "Use PHPhotosError.Code.switchingSystemPhotoLibrary")
    public var PHPhotosErrorSwitchingSystemPhotoLibrary: Int { PHPhotosError.Code.switchingSystemPhotoLibrary.rawValue }
#endif
