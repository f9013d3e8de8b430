#if !canImport(ObjectiveC)
    import Foundation

    /// A decoded image (minimal stand-in for UIKit's `UIImage`, which `PHImageManager` delivers):
    /// its size, scale, and JPEG or PNG encoding.
    // @unchecked Sendable: every stored property is a `let` of a Sendable type.
    public class UIImage: NSObject, @unchecked Sendable {
        /// The size in points (pixels ÷ ``scale``).
        public let size: CGSize
        /// Pixels per point (1 for images from `PHImageManager`).
        public let scale: CGFloat
        /// The pixels, as a PNG file.
        let png: Data

        init(png: Data, pixelWidth: Int, pixelHeight: Int) {
            self.png = png
            self.size = CGSize(width: pixelWidth, height: pixelHeight)
            self.scale = 1
        }

        /// The image as a JPEG file at `compressionQuality` (0 smallest, 1 best); `nil` when it
        /// cannot be encoded.
        public func jpegData(compressionQuality: CGFloat) -> Data? {
            let quality = Int((min(max(compressionQuality, 0), 1) * 100).rounded())
            return ImageMagick.convert(png, ["-quality", String(max(quality, 1))], to: "jpg")
        }

        /// The image as a PNG file.
        public func pngData() -> Data? { png }
    }
#endif
