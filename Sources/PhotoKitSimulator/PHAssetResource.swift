#if !canImport(ObjectiveC)
    import Foundation

    /// A data resource of an asset: its photo, video or paired video, with its original name.
    // Not Sendable: Apple's declaration does not say it is (the stricter choice).
    public class PHAssetResource: NSObject {
        /// The resource's role in its asset.
        public let type: PHAssetResourceType
        /// The local identifier of the asset the resource belongs to.
        public let assetLocalIdentifier: String
        /// The uniform type identifier of the resource's data (`public.data` when unknown).
        public let uniformTypeIdentifier: String
        /// The file name the resource had when it was created or imported.
        public let originalFilename: String

        init(_ resource: SimulatedResource, of asset: String) {
            type = resource.type
            assetLocalIdentifier = asset
            uniformTypeIdentifier = resource.uniformTypeIdentifier ?? "public.data"
            originalFilename = resource.originalFilename
        }

        /// The resources of `asset`, in the order they were added; empty when the asset is gone
        /// or the app cannot read the library.
        public class func assetResources(for asset: PHAsset) -> [PHAssetResource] {
            PHPhotoLibrary.shared().state.withLock { state in
                guard
                    state.authorization.status(for: .readWrite) == .authorized
                        || state.authorization.status(for: .readWrite) == .limited,
                    let record = state.assets.first(where: { $0.localIdentifier == asset.localIdentifier })
                else { return [] }
                return record.resources.map { PHAssetResource($0, of: record.localIdentifier) }
            }
        }
    }
#endif
