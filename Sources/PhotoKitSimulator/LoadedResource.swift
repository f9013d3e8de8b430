#if !canImport(ObjectiveC)
    import Foundation

    /// A resource whose bytes were read and validated at commit, before it is stored.
    struct LoadedResource: Sendable {
        let type: PHAssetResourceType
        let data: Data
        let sourceFileURL: URL?
        let originalFilename: String?
        let uniformTypeIdentifier: String?
        let shouldMoveFile: Bool

        /// Reads and validates `resource`; `nil` when Photos would reject it (`.invalidResource`):
        /// empty data, a missing, unreadable, empty or non-regular file, a hard-linked file
        /// to be moved, or content its type cannot hold (``holdsValidContent``).
        init?(_ resource: ChangeContents.Resource) {
            self.init(reading: resource)
            guard holdsValidContent else { return nil }
        }

        /// Whether the bytes are what the type holds.
        ///
        /// Assumption: Apple documents `.alternatePhoto` as "an alternate format of the asset's photo,
        /// such as the RAW format data for a photo captured in both RAW and JPEG formats" and
        /// `.adjustmentData` as the data describing edits (`PHAdjustmentData`: a format identifier,
        /// a format version and data), but not what Photos refuses. The simulator's model: an
        /// alternate photo must be of a still image type (its uniform type identifier given, else
        /// inferred from its file name: JPEG, HEIF, PNG, TIFF or a camera raw); adjustment data
        /// must be a property list holding `adjustmentFormatIdentifier` and
        /// `adjustmentFormatVersion` strings, as the `.AAE` files Photos writes do.
        var holdsValidContent: Bool {
            switch type {
            case .alternatePhoto:
                let identifier =
                    uniformTypeIdentifier
                    ?? originalFilename.flatMap(SimulatedResource.uniformTypeIdentifier(forFilename:))
                return identifier.map(SimulatedResource.isImageType) ?? false
            case .adjustmentData:
                // Not a property list: Photos cannot read the edits (`false` is the answer, not an error).
                guard let list = try? PropertyListSerialization.propertyList(from: data, format: nil),
                    let envelope = list as? [String: Any]
                else { return false }
                return envelope["adjustmentFormatIdentifier"] is String
                    && envelope["adjustmentFormatVersion"] is String
            default:
                return true
            }
        }

        private init?(reading resource: ChangeContents.Resource) {
            type = resource.type
            uniformTypeIdentifier = resource.uniformTypeIdentifier
            shouldMoveFile = resource.shouldMoveFile
            switch resource.source {
            case .data(let bytes):
                guard !bytes.isEmpty else { return nil }
                data = bytes
                sourceFileURL = nil
                originalFilename = resource.originalFilename
            case .file(let url):
                guard url.isFileURL,
                    // As PhotoKit: a file that cannot be read fails the request (`nil` here, an error for the caller).
                    let attributes = try? FileManager.default.attributesOfItem(atPath: url.path),
                    attributes[.type] as? FileAttributeType == .typeRegular,
                    // Unreadable bytes fail the request the same way.
                    let bytes = try? Data(contentsOf: url), !bytes.isEmpty
                else { return nil }
                if resource.shouldMoveFile, let links = attributes[.referenceCount] as? NSNumber, links.intValue > 1 {
                    return nil
                }
                data = bytes
                sourceFileURL = url
                originalFilename = resource.originalFilename ?? url.lastPathComponent
            }
        }
    }
#endif
