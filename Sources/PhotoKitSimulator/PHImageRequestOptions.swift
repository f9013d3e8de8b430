#if !canImport(ObjectiveC)
    import Foundation

    /// A progress handler for an image coming from iCloud (never called by the simulator, whose
    /// assets are all on the device).
    public typealias PHAssetImageProgressHandler = (
        Double, (any Error)?, UnsafeMutablePointer<ObjCBool>, [AnyHashable: Any]?
    )
        -> Void

    /// How `PHImageManager` renders and delivers an image: version, delivery and resize modes,
    /// network access, synchronous or not.
    // @unchecked Sendable: Photos declares no Sendable here either; the simulator reads the
    // properties once, on the calling thread, when the request is made.
    public class PHImageRequestOptions: NSObject, NSCopying, @unchecked Sendable {
        /// Which version to render (default `.current`).
        public var version: PHImageRequestOptionsVersion = .current
        /// How many results, of what quality (default `.opportunistic`).
        public var deliveryMode: PHImageRequestOptionsDeliveryMode = .opportunistic
        /// How closely the size is kept (default `.fast`).
        public var resizeMode: PHImageRequestOptionsResizeMode = .fast
        /// A crop in unit coordinates (default `.zero`: none). The simulator does not crop.
        public var normalizedCropRect: CGRect = .zero
        /// Whether Photos may download the image from iCloud (default `false`).
        public var isNetworkAccessAllowed = false
        /// Whether the result handler runs once, on the calling thread, before the request returns
        /// (default `false`).
        public var isSynchronous = false
        /// Told of an iCloud download's progress (default `nil`).
        public var progressHandler: PHAssetImageProgressHandler?

        /// Options with Photos' defaults.
        public override init() { super.init() }

        /// A copy with the same values.
        public func copy(with zone: NSZone? = nil) -> Any {
            let copy = PHImageRequestOptions()
            copy.version = version
            copy.deliveryMode = deliveryMode
            copy.resizeMode = resizeMode
            copy.normalizedCropRect = normalizedCropRect
            copy.isNetworkAccessAllowed = isNetworkAccessAllowed
            copy.isSynchronous = isSynchronous
            copy.progressHandler = progressHandler
            return copy
        }
    }
#endif
