#if !canImport(ObjectiveC)
    import Foundation

    /// A data resource of an asset in the simulated library, as imported at commit.
    public struct SimulatedResource: Sendable, Hashable {
        /// The resource type, such as `.photo` or `.pairedVideo`.
        public let type: PHAssetResourceType
        /// The original filename: from the options, else the file URL's last component,
        /// else generated (`IMG_0001.JPG`).
        public let originalFilename: String
        /// The uniform type identifier: from the options, else inferred from the filename
        /// extension, else `nil`.
        public let uniformTypeIdentifier: String?
        /// The imported bytes.
        public let data: Data
        /// The file the resource was added from, or `nil` when it was added from `Data`.
        public let sourceFileURL: URL?
        /// Whether the source file was moved into the library (`shouldMoveFile`).
        public let movedSourceFile: Bool

        /// The size in bytes.
        public var size: Int { data.count }

        /// A resource (used by tests that seed assets).
        public init(
            type: PHAssetResourceType, originalFilename: String, uniformTypeIdentifier: String? = nil,
            data: Data, sourceFileURL: URL? = nil, movedSourceFile: Bool = false
        ) {
            self.type = type
            self.originalFilename = originalFilename
            self.uniformTypeIdentifier = uniformTypeIdentifier
            self.data = data
            self.sourceFileURL = sourceFileURL
            self.movedSourceFile = movedSourceFile
        }

        /// The uniform type identifier for a filename's extension, when known.
        static func uniformTypeIdentifier(forFilename filename: String) -> String? {
            let known: [String: String] = [
                "jpg": "public.jpeg", "jpeg": "public.jpeg", "heic": "public.heic", "heif": "public.heif",
                "png": "public.png", "gif": "com.compuserve.gif", "tif": "public.tiff", "tiff": "public.tiff",
                "dng": "com.adobe.raw-image", "webp": "org.webmproject.webp", "avif": "public.avif",
                "mov": "com.apple.quicktime-movie", "mp4": "public.mpeg-4", "m4v": "com.apple.m4v-video",
                "aae": "com.apple.photos.apple-adjustment-envelope",
            ]
            let ext = (filename as NSString).pathExtension.lowercased()
            return known[ext] ?? cameraRawTypes[ext]
        }

        /// Camera raw formats by extension, with the identifiers Apple's image I/O declares for them
        /// (each conforms to `public.camera-raw-image`).
        static let cameraRawTypes: [String: String] = [
            "dng": "com.adobe.raw-image", "cr2": "com.canon.cr2-raw-image", "cr3": "com.canon.cr3-raw-image",
            "crw": "com.canon.crw-raw-image", "nef": "com.nikon.raw-image", "nrw": "com.nikon.nrw-raw-image",
            "arw": "com.sony.arw-raw-image", "raf": "com.fuji.raw-image", "orf": "com.olympus.raw-image",
            "rw2": "com.panasonic.rw2-raw-image", "pef": "com.pentax.raw-image", "srw": "com.samsung.raw-image",
        ]

        /// Whether `identifier` is a still image type Photos can hold as a photo resource.
        static func isImageType(_ identifier: String) -> Bool {
            [
                "public.jpeg", "public.heic", "public.heif", "public.png", "public.tiff", "public.avif",
                "org.webmproject.webp",
            ]
            .contains(identifier) || cameraRawTypes.values.contains(identifier)
        }

        /// A filename extension for a generated name.
        static func filenameExtension(for type: PHAssetResourceType, uniformTypeIdentifier: String?) -> String {
            let known: [String: String] = [
                "public.jpeg": "JPG", "public.heic": "HEIC", "public.heif": "HEIF", "public.png": "PNG",
                "com.compuserve.gif": "GIF", "public.tiff": "TIFF", "com.adobe.raw-image": "DNG",
                "com.apple.quicktime-movie": "MOV", "public.mpeg-4": "MP4", "com.apple.m4v-video": "M4V",
            ]
            if let uti = uniformTypeIdentifier, let ext = known[uti] { return ext }
            switch type {
            case .video, .pairedVideo, .fullSizeVideo, .fullSizePairedVideo, .adjustmentBaseVideo,
                .adjustmentBasePairedVideo:
                return "MOV"
            case .audio: return "M4A"
            case .adjustmentData: return "plist"
            default: return "JPG"
            }
        }
    }
#endif
