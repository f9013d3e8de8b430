#if !canImport(ObjectiveC)
    import Foundation

    /// Options for a resource added to a `PHAssetCreationRequest`.
    public class PHAssetResourceCreationOptions: NSObject, NSCopying {
        /// The resource's original filename; inferred from the file URL when `nil`, else generated.
        public var originalFilename: String?
        /// The resource's uniform type identifier; inferred when `nil`.
        public var uniformTypeIdentifier: String?
        /// Whether Photos moves the file instead of copying it (file URLs only; default `false`).
        /// The file is removed only after the asset is created.
        public var shouldMoveFile: Bool = false

        /// Default options.
        public override init() {}

        /// A copy of the options.
        public func copy(with zone: NSZone? = nil) -> Any {
            let copy = PHAssetResourceCreationOptions()
            copy.originalFilename = originalFilename
            copy.uniformTypeIdentifier = uniformTypeIdentifier
            copy.shouldMoveFile = shouldMoveFile
            return copy
        }
    }
#endif
