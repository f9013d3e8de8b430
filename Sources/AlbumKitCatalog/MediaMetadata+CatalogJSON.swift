import AlbumKitCore
import AlbumKitMedia
import Foundation

extension MediaMetadata {
    /// The metadata as a JSON object with sorted keys (what `JSONEncoder` with `.sortedKeys` reads
    /// and writes for ``MediaMetadata``), as a catalog stores it with each asset.
    package var jsonText: String {
        // Warnings and the animation flag (rare) need an array and a boolean: Foundation's encoder,
        // which writes the same keys.
        if isAnimated || !warnings.isEmpty {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            // Encoding strings, numbers and flags cannot fail.
            if let data = try? encoder.encode(self) { return String(decoding: data, as: UTF8.self) }
        }
        var object = JSONObjectWriter()
        object.add("altitude", altitude)
        object.add("captureDate", captureDate)
        object.add("duration", duration)
        object.add("format", format.rawValue)
        object.add("height", height)
        object.add("kind", kind.rawValue)
        object.add("latitude", latitude)
        object.add("lens", lens)
        object.add("longitude", longitude)
        object.add("make", make)
        object.add("model", model)
        object.add("orientation", orientation)
        object.add("rating", rating)
        object.add("width", width)
        return String(decoding: object.bytes, as: UTF8.self)
    }
}
