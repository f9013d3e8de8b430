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

    /// The metadata a catalog stores with an asset (``jsonText``), read back; `nil` when it does
    /// not decode as ``MediaMetadata``. A flat object of the keys ``jsonText`` writes is read by
    /// ``JSONObjectReader`` (`JSONDecoder` took ~10 µs an asset, a quarter of a long listing's
    /// time); anything else (warnings, the animation flag, a value of another type or a number
    /// outside JSON's grammar) is left to `JSONDecoder`, so both read every text alike.
    ///
    /// ```swift
    /// MediaMetadata(catalogJSON: #"{"format":"jpeg","height":12,"kind":"photo","width":16}"#)?.width  // 16
    /// ```
    package init?(catalogJSON text: String) {
        if let read = Self.readQuickly(text) {
            self = read
            return
        }
        // Metadata is an extra: a record whose JSON does not decode is listed without it.
        guard let decoded = try? JSONDecoder().decode(MediaMetadata.self, from: Data(text.utf8)) else { return nil }
        self = decoded
    }

    /// `text` read without `JSONDecoder`, or `nil` when it is not a flat object of strings, numbers
    /// and nulls, each key once, whose keys hold what ``init(from:)`` takes.
    private static func readQuickly(_ text: String) -> MediaMetadata? {
        guard let object = JSONObjectReader(text.utf8), !object.hasRepeatedKeys else { return nil }
        let members = object.members
        // The animation flag and warnings (rare) are `JSONDecoder`'s to read, whatever they hold.
        guard members["animated"] == nil, members["warnings"] == nil else { return nil }
        for value in members.values {
            switch value {
            case .nested, .bool: return nil
            case .string, .number, .null: break
            }
        }
        guard case .string(let name)? = members["format"], let format = MediaFormat(rawValue: name) else { return nil }
        func string(_ key: String) -> String?? {
            switch members[key] {
            case nil, .null?: return .some(nil)
            case .string(let text)?: return .some(text)
            default: return nil
            }
        }
        func integer(_ key: String) -> Int?? {
            switch members[key] {
            case nil, .null?: return .some(nil)
            case .number(let text)?:
                guard isJSONNumber(text, integer: true), let value = Int(text) else { return nil }
                return .some(value)
            default: return nil
            }
        }
        func number(_ key: String) -> Double?? {
            switch members[key] {
            case nil, .null?: return .some(nil)
            case .number(let text)?:
                guard isJSONNumber(text, integer: false), let value = Double(text), value.isFinite else { return nil }
                return .some(value)
            default: return nil
            }
        }
        guard let width = integer("width"), let height = integer("height"), let orientation = integer("orientation"),
            let rating = integer("rating"), let captureDate = string("captureDate"), let make = string("make"),
            let model = string("model"), let lens = string("lens"), let latitude = number("latitude"),
            let longitude = number("longitude"), let altitude = number("altitude"), let duration = number("duration")
        else { return nil }
        var metadata = MediaMetadata(format: format)
        metadata.width = width
        metadata.height = height
        metadata.orientation = orientation
        metadata.rating = rating
        metadata.captureDate = captureDate
        metadata.make = make
        metadata.model = model
        metadata.lens = lens
        // Set outside an initializer: the properties round degrees and drop what is not finite,
        // as `init(from:)` does for these values.
        metadata.latitude = latitude
        metadata.longitude = longitude
        metadata.altitude = altitude
        metadata.duration = duration
        return metadata
    }

    /// Whether `text` is a number as JSON writes it (`-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`),
    /// without fraction or exponent when `integer`.
    private static func isJSONNumber(_ text: String, integer: Bool) -> Bool {
        var bytes = text.utf8[...]
        func digits() -> Int {
            let count = bytes.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }.count
            bytes = bytes.dropFirst(count)
            return count
        }
        if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        let leadingZero = bytes.first == UInt8(ascii: "0")
        let whole = digits()
        guard whole > 0, !(leadingZero && whole > 1) else { return false }
        if integer { return bytes.isEmpty }
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            guard digits() > 0 else { return false }
        }
        if bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
            guard digits() > 0 else { return false }
        }
        return bytes.isEmpty
    }
}
