#if canImport(UIKit) && !os(watchOS)
    import UIKit

    extension Media {
        /// A `UIImage`, for when there is no original file or data (a drawn or edited image).
        ///
        /// The image is encoded losslessly as PNG; it has no camera metadata. Prefer `.file` or
        /// `.data` with the original bytes whenever you have them — they keep EXIF, GPS and quality.
        /// ```swift
        /// try await album.save(.image(renderedImage))
        /// ```
        public static func image(_ image: UIImage, filename: String = "Image.png") -> Media {
            .data(image.pngData() ?? Data(), filename: filename)
        }
    }
#elseif canImport(AppKit)
    import AppKit

    extension Media {
        /// An `NSImage`, for when there is no original file or data (a drawn or edited image).
        ///
        /// The image is encoded losslessly as PNG; it has no camera metadata. Prefer `.file` or
        /// `.data` with the original bytes whenever you have them — they keep EXIF, GPS and quality.
        /// ```swift
        /// try await album.save(.image(renderedImage))
        /// ```
        public static func image(_ image: NSImage, filename: String = "Image.png") -> Media {
            let png = image.tiffRepresentation.flatMap { NSBitmapImageRep(data: $0) }?
                .representation(using: .png, properties: [:])
            return .data(png ?? Data(), filename: filename)
        }
    }
#endif
