import AlbumKitMedia

/// How every library names and checks the thumbnails and previews it keeps (a catalog in its
/// folder, a shared library in its object store, a folder library in the desktop's cache): kept by
/// content under `derivatives/<size>/<first two hex digits>/<SHA-256 of the original>.jpg`, and
/// believed only when the bytes read back are a picture of an allowed format, within the size kept
/// there, that decodes whole. A cache, never the truth: anything else is made again.
///
/// ```swift
/// let name = KeptDerivative.name(sha256: sha, pixels: 256)   // "derivatives/256/3f/3f9a….jpg"
/// if let kept = KeptDerivative.believed(bytes, largestSide: 256, formats: [.jpeg]) { … }
/// ```
package enum KeptDerivative {
    /// The folder (or key prefix) every derivative is kept beneath.
    package static let folder = "derivatives"

    /// Where the derivative of the original whose SHA-256 is `sha256` is kept at `pixels` on its
    /// longest side, relative to the library; `nil` for a digest that is not 64 lowercase
    /// hexadecimal digits (what a database or an index says is not believed).
    ///
    /// ```swift
    /// KeptDerivative.name(sha256: "3f9a…", pixels: 512)   // "derivatives/512/3f/3f9a….jpg"
    /// ```
    package static func name(sha256: String, pixels: Int) -> String? {
        guard isDigest(sha256), pixels > 0 else { return nil }
        return "\(folder)/\(pixels)/\(sha256.prefix(2))/\(sha256).jpg"
    }

    /// The SHA-256 and size of the derivative `name` names, when it is exactly a name ``name(sha256:pixels:)``
    /// makes for one of `sizes`; `nil` for anything else (a listing is not believed: what does not
    /// read back to its own name is not AlbumKit's).
    ///
    /// ```swift
    /// KeptDerivative.parse("derivatives/256/3f/3f9a….jpg", sizes: [256, 512, 2048])   // ("3f9a…", 256)
    /// ```
    package static func parse(_ name: String, sizes: [Int]) -> (sha256: String, pixels: Int)? {
        let parts = name.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == folder, let pixels = Int(parts[1]), sizes.contains(pixels),
            parts[3].hasSuffix(".jpg")
        else { return nil }
        let sha256 = String(parts[3].dropLast(4))
        guard self.name(sha256: sha256, pixels: pixels) == name else { return nil }
        return (sha256, pixels)
    }

    /// Whether `text` is a SHA-256 as AlbumKit writes it: 64 lowercase hexadecimal digits.
    package static func isDigest(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    /// `bytes` as a kept picture when they are a picture of one of `formats` whose longest side is at
    /// most `largestSide` and that libvips decodes without an error; `nil` for anything else
    /// (damaged, cut short, forged into another file, larger than the size kept there), and when
    /// libvips is missing (nothing kept can be checked then).
    ///
    /// ```swift
    /// let kept = KeptDerivative.believed(bytes, largestSide: 256)   // a JPEG or PNG of at most 256 pixels
    /// ```
    package static func believed(
        _ bytes: [UInt8], largestSide: Int, formats: Set<MediaFormat> = [.jpeg, .png]
    ) -> RenderedPreview? {
        // The size from the header (not a picture: made again)…
        guard let metadata = try? MediaInspector().inspect(BufferByteSource(bytes: bytes)),
            formats.contains(metadata.format), let width = metadata.width,
            let height = metadata.height, width >= 1, height >= 1, max(width, height) <= largestSide
        else { return nil }
        // …then a strict decode of the pixels, small (32 pixels): one that does not decode is made
        // again, and without libvips nothing kept can be checked.
        guard let renderer = try? PreviewRenderer.load(),
            (try? renderer.render(.bytes(bytes), maxPixelSize: 32, strict: true)) != nil
        else { return nil }
        return RenderedPreview(bytes: bytes, pixelWidth: width, pixelHeight: height, format: metadata.format)
    }
}
