/// What AlbumKit knows about a photo or video after inspecting it (no pixels decoded).
///
/// Missing values are `nil`, never invented; so is a number no file can mean (infinite or NaN, as a
/// crafted file's arithmetic can give), which is dropped when set.
///
/// ```swift
/// let metadata = try MediaInspector().inspect(source)
/// print(metadata.format, metadata.width ?? 0, metadata.height ?? 0)
/// ```
public struct MediaMetadata: Sendable, Hashable, Codable {
    /// Photo or video.
    public var kind: MediaKind { format.kind }
    /// The container format.
    public var format: MediaFormat
    /// Width as displayed (after EXIF orientation), in pixels.
    public var width: Int?
    /// Height as displayed (after EXIF orientation), in pixels.
    public var height: Int?
    /// EXIF orientation, 1–8.
    public var orientation: Int?
    /// Capture date in ISO 8601 (`2024-05-01T10:20:30+02:00`; no offset when the file has none).
    public var captureDate: String?
    /// Signed decimal degrees, to 7 decimals (about 1 cm: what EXIF's degree, minute and second
    /// fractions mean, without binary noise like `2.2944999999999998`).
    public var latitude: Double? { didSet { latitude = Self.degrees(latitude) } }
    /// Signed decimal degrees, to 7 decimals (see ``latitude``).
    public var longitude: Double? { didSet { longitude = Self.degrees(longitude) } }
    /// Metres above sea level (negative below).
    public var altitude: Double? { didSet { if altitude?.isFinite == false { altitude = nil } } }
    /// Camera make.
    public var make: String?
    /// Camera model.
    public var model: String?
    /// The lens, as the camera or an editor names it (`"RF24-105mm F4 L IS USM"`): EXIF LensModel,
    /// else XMP `aux:Lens` or `exifEX:LensModel`.
    public var lens: String?
    /// The rating an editor gave it (XMP `xmp:Rating`, in the file or its `.xmp` sidecar): 1 to 5
    /// stars, 0 for none given, -1 for a photo rejected.
    public var rating: Int?
    /// The camera as people name it: the model alone when it already starts with the make's first
    /// word (Canon writes make "Canon", model "Canon EOS R6"), else make and model.
    ///
    /// ```swift
    /// metadata.camera   // "Canon EOS R6", "SONY ILCE-7M3", "Apple iPhone 15 Pro"
    /// ```
    public var camera: String? {
        let make = (make ?? "").split(whereSeparator: \.isWhitespace)
        let model = (model ?? "").split(whereSeparator: \.isWhitespace)
        if model.isEmpty { return make.isEmpty ? nil : make.joined(separator: " ") }
        if make.isEmpty || make[0].lowercased() == model[0].lowercased() { return model.joined(separator: " ") }
        return (make + model).joined(separator: " ")
    }
    /// Duration in seconds (videos).
    public var duration: Double? { didSet { if duration?.isFinite == false { duration = nil } } }
    /// Whether a photo format holds more than one frame to play (animated GIF, WebP or PNG, an AVIF or
    /// HEIF image sequence); such files are still photos.
    ///
    /// ```swift
    /// if metadata.isAnimated { print("plays as an animation") }
    /// ```
    public var isAnimated = false
    /// Damage the file has that mainstream decoders tolerate, and so does AlbumKit: one sentence each
    /// ("JPEG has 10 stray bytes before the marker at offset 2000"); empty for a well-formed file.
    ///
    /// ```swift
    /// for warning in metadata.warnings { print("tolerated:", warning) }
    /// ```
    public var warnings: [String] = []

    /// Creates metadata with only a format; the rest is filled in by parsers.
    public init(format: MediaFormat) { self.format = format }

    private enum CodingKeys: String, CodingKey {
        case kind, format, width, height, orientation, captureDate, latitude, longitude, altitude, make, model, duration
        case lens, rating
        case isAnimated = "animated"
        case warnings
    }

    /// Degrees rounded to 7 decimals; `nil` for a number no file can mean (infinite, NaN).
    static func degrees(_ value: Double?) -> Double? {
        guard let value, value.isFinite else { return nil }
        // No degree is this large; such a number (a crafted file's) is kept as it is, never
        // overflowed into infinity by the rounding.
        guard abs(value) < 1_000_000 else { return value }
        return (value * 10_000_000).rounded() / 10_000_000
    }

    /// Decodes metadata; `kind` is derived from `format`.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        format = try c.decode(MediaFormat.self, forKey: .format)
        width = try c.decodeIfPresent(Int.self, forKey: .width)
        height = try c.decodeIfPresent(Int.self, forKey: .height)
        orientation = try c.decodeIfPresent(Int.self, forKey: .orientation)
        captureDate = try c.decodeIfPresent(String.self, forKey: .captureDate)
        latitude = Self.degrees(try c.decodeIfPresent(Double.self, forKey: .latitude))
        longitude = Self.degrees(try c.decodeIfPresent(Double.self, forKey: .longitude))
        altitude = try c.decodeIfPresent(Double.self, forKey: .altitude)
        make = try c.decodeIfPresent(String.self, forKey: .make)
        model = try c.decodeIfPresent(String.self, forKey: .model)
        lens = try c.decodeIfPresent(String.self, forKey: .lens)
        rating = try c.decodeIfPresent(Int.self, forKey: .rating)
        duration = try c.decodeIfPresent(Double.self, forKey: .duration)
        isAnimated = try c.decodeIfPresent(Bool.self, forKey: .isAnimated) ?? false
        warnings = try c.decodeIfPresent([String].self, forKey: .warnings) ?? []
    }

    /// Encodes metadata, including `kind`; missing values are omitted, and so are `animated` when false
    /// and `warnings` when empty.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(kind, forKey: .kind)
        try c.encode(format, forKey: .format)
        try c.encodeIfPresent(width, forKey: .width)
        try c.encodeIfPresent(height, forKey: .height)
        try c.encodeIfPresent(orientation, forKey: .orientation)
        try c.encodeIfPresent(captureDate, forKey: .captureDate)
        try c.encodeIfPresent(latitude, forKey: .latitude)
        try c.encodeIfPresent(longitude, forKey: .longitude)
        try c.encodeIfPresent(altitude, forKey: .altitude)
        try c.encodeIfPresent(make, forKey: .make)
        try c.encodeIfPresent(model, forKey: .model)
        try c.encodeIfPresent(lens, forKey: .lens)
        try c.encodeIfPresent(rating, forKey: .rating)
        try c.encodeIfPresent(duration, forKey: .duration)
        if isAnimated { try c.encode(true, forKey: .isAnimated) }
        if !warnings.isEmpty { try c.encode(warnings, forKey: .warnings) }
    }
}
