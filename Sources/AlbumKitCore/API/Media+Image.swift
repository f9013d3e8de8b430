import Foundation

#if canImport(ImageIO) && canImport(UniformTypeIdentifiers) && canImport(CoreGraphics)
    import CoreGraphics
    import ImageIO
    import UniformTypeIdentifiers

    extension Media {
        /// `image` encoded as `encoding` with `orientation` and `metadata` (ImageIO property
        /// dictionaries: `kCGImagePropertyExifDictionary`, `kCGImagePropertyGPSDictionary`, …) kept;
        /// HEIC falls back to JPEG where the device has no HEVC encoder. A failure is kept in the
        /// media and reported by the save as `.invalidArgument`, before anything is written.
        static func encoded(
            _ image: CGImage?, orientation: CGImagePropertyOrientation, metadata: [String: Any],
            encoding: ImageEncoding, filename: String?, describedAs kind: String
        ) -> Media {
            let formats: [ImageEncoding.Format] = encoding.format == .heic ? [.heic, .jpeg] : [.jpeg]
            var failure = "it has no bitmap to encode (an image made from a CIImage or a symbol)"
            if let image {
                failure = "ImageIO could not encode it"
                for format in formats {
                    let type = format == .heic ? UTType.heic : UTType.jpeg
                    let data = NSMutableData()
                    guard
                        let destination = CGImageDestinationCreateWithData(
                            data as CFMutableData, type.identifier as CFString, 1, nil)
                    else { continue }
                    var properties = metadata
                    properties[kCGImagePropertyOrientation as String] = orientation.rawValue
                    properties[kCGImageDestinationLossyCompressionQuality as String] = encoding.quality
                    CGImageDestinationAddImage(destination, image, properties as CFDictionary)
                    guard CGImageDestinationFinalize(destination), data.length > 0 else { continue }
                    return .data(data as Data, filename: ImageEncoding.fileName(filename, for: format))
                }
            }
            let name = ImageEncoding.fileName(filename, for: encoding.format)
            var media = Media.data(Data(), filename: name)
            media.preparationError = AlbumError(
                .invalidArgument,
                "The \(kind) given for \(name) cannot be encoded as \(formats.map(\.rawValue).joined(separator: " or ").uppercased()): \(failure). Nothing was saved for it.",
                file: name)
            return media
        }
    }
#endif

#if canImport(UIKit) && !os(watchOS) && canImport(ImageIO) && canImport(UniformTypeIdentifiers)
    import UIKit

    extension Media {
        /// A `UIImage`, for when there is no original file or data (a photo from the camera
        /// controller, a drawn or edited image): encoded as HEIC (or JPEG) with its orientation, so a
        /// portrait camera photo (`.right`) is saved upright, and with `metadata` kept — pass the
        /// camera's (`UIImagePickerController.InfoKey.mediaMetadata`) to keep EXIF and GPS.
        ///
        /// Prefer `.file` or `.data` with the original bytes whenever you have them: they are saved
        /// byte for byte. The file name's extension becomes the format's (`heic` or `jpg`). An image
        /// that cannot be encoded (one made from a `CIImage` without a bitmap) fails its save with
        /// `.invalidArgument` saying so, before anything is written; the others of a batch are saved.
        /// ```swift
        /// let photo = info[.originalImage] as! UIImage
        /// let metadata = info[.mediaMetadata] as? [String: Any] ?? [:]
        /// try await album.save(.image(photo, metadata: metadata))
        /// ```
        public static func image(
            _ image: UIImage, encoding: ImageEncoding = .heic, metadata: [String: Any] = [:],
            filename: String? = nil
        ) -> Media {
            encoded(
                image.cgImage, orientation: orientation(of: image.imageOrientation), metadata: metadata,
                encoding: encoding, filename: filename, describedAs: "UIImage")
        }

        /// The EXIF orientation that shows the pixels as `orientation` does.
        static func orientation(of orientation: UIImage.Orientation) -> CGImagePropertyOrientation {
            switch orientation {
            case .up: .up
            case .down: .down
            case .left: .left
            case .right: .right
            case .upMirrored: .upMirrored
            case .downMirrored: .downMirrored
            case .leftMirrored: .leftMirrored
            case .rightMirrored: .rightMirrored
            @unknown default: .up
            }
        }
    }
#elseif canImport(AppKit) && canImport(ImageIO) && canImport(UniformTypeIdentifiers)
    import AppKit

    extension Media {
        /// An `NSImage`, for when there is no original file or data (a drawn or edited image):
        /// encoded as HEIC (or JPEG) with `metadata` (ImageIO property dictionaries) kept.
        ///
        /// Prefer `.file` or `.data` with the original bytes whenever you have them: they are saved
        /// byte for byte. The file name's extension becomes the format's (`heic` or `jpg`). An image
        /// that cannot be encoded fails its save with `.invalidArgument` saying so, before anything
        /// is written.
        /// ```swift
        /// try await album.save(.image(renderedImage, encoding: .jpeg))
        /// ```
        public static func image(
            _ image: NSImage, encoding: ImageEncoding = .heic, metadata: [String: Any] = [:],
            filename: String? = nil
        ) -> Media {
            encoded(
                image.cgImage(forProposedRect: nil, context: nil, hints: nil), orientation: .up, metadata: metadata,
                encoding: encoding, filename: filename, describedAs: "NSImage")
        }
    }
#endif
