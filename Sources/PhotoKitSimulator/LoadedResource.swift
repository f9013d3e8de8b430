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
        /// empty data, a missing, unreadable, empty or non-regular file, or a hard-linked file
        /// to be moved.
        init?(_ resource: ChangeContents.Resource) {
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
                    // (as above)
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
