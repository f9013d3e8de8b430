#if !canImport(ObjectiveC)
    import Foundation

    /// A request to create an asset from data resources, inside a change block.
    ///
    /// Adding resources always succeeds; Photos validates them when the block commits and
    /// reports problems through the completion handler (`.invalidResource`, `.missingResource`).
    public class PHAssetCreationRequest: PHAssetChangeRequest {
        /// A request to create a new, empty asset; add at least a photo or video resource.
        @discardableResult
        public class func forAsset() -> Self {
            newCreationRequest(in: ChangeTransaction.requireCurrent())
        }

        /// Whether an asset can be created from resources of these types (`PHAssetResourceType` raw values).
        ///
        /// Supported: exactly one `.photo` or one `.video`, plus companions of that primary
        /// (for a photo: `.pairedVideo`, `.alternatePhoto`, `.fullSizePhoto`, …; for a video:
        /// `.fullSizeVideo`, `.adjustmentBaseVideo`), `.adjustmentData`, and no duplicates.
        @discardableResult
        public class func supportsAssetResourceTypes(_ types: [NSNumber]) -> Bool {
            let resourceTypes = types.map { PHAssetResourceType(rawValue: $0.intValue) }
            guard !resourceTypes.contains(nil) else { return false }
            return supports(resourceTypes.compactMap { $0 })
        }

        /// The resource-combination rule shared with commit-time validation.
        ///
        /// Assumption: Apple documents `supportsAssetResourceTypes(_:)` but not the combinations
        /// it accepts; this rule (one primary photo or video, with its own kinds of companions,
        /// no type twice) is the simulator's model of what Photos accepts in practice.
        static func supports(_ types: [PHAssetResourceType]) -> Bool {
            guard Set(types).count == types.count else { return false }
            let hasPhoto = types.contains(.photo)
            let hasVideo = types.contains(.video)
            guard hasPhoto != hasVideo else { return false }
            let photoCompanions: Set<PHAssetResourceType> = [
                .alternatePhoto, .fullSizePhoto, .adjustmentBasePhoto, .pairedVideo, .fullSizePairedVideo,
                .adjustmentBasePairedVideo, .photoProxy,
            ]
            let videoCompanions: Set<PHAssetResourceType> = [.fullSizeVideo, .adjustmentBaseVideo]
            for type in types where type != .photo && type != .video && type != .adjustmentData {
                if hasPhoto && !photoCompanions.contains(type) { return false }
                if hasVideo && !videoCompanions.contains(type) { return false }
            }
            return true
        }

        /// Adds a resource from `data`; empty data fails the block at commit with `.invalidResource`.
        public func addResource(with type: PHAssetResourceType, data: Data, options: PHAssetResourceCreationOptions?) {
            add(
                ChangeContents.Resource(
                    type: type, source: .data(data), originalFilename: options?.originalFilename,
                    uniformTypeIdentifier: options?.uniformTypeIdentifier, shouldMoveFile: false
                ))
        }

        /// Adds a resource from the file at `fileURL`, read at commit.
        ///
        /// A missing, unreadable or empty file fails the block with `.invalidResource`. With
        /// `shouldMoveFile`, the file is removed after a successful commit, and a hard-linked
        /// file fails the block.
        public func addResource(with type: PHAssetResourceType, fileURL: URL, options: PHAssetResourceCreationOptions?)
        {
            add(
                ChangeContents.Resource(
                    type: type, source: .file(fileURL), originalFilename: options?.originalFilename,
                    uniformTypeIdentifier: options?.uniformTypeIdentifier,
                    shouldMoveFile: options?.shouldMoveFile ?? false
                ))
        }

        private func add(_ resource: ChangeContents.Resource) {
            let id = assetIdentifier
            transaction.record { $0.updateCreatedAsset(id) { $0.resources.append(resource) } }
        }
    }
#endif
