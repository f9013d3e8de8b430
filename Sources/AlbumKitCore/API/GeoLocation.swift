/// A place on Earth: latitude and longitude in signed decimal degrees (WGS 84, as GPS and Photos
/// use), and the altitude in metres when known.
///
/// ```swift
/// let geneva = GeoLocation(latitude: 46.2044, longitude: 6.1432)
/// try await album.save(.file(photoURL).with(location: geneva))
/// ```
public struct GeoLocation: Sendable, Hashable, Codable {
    /// Degrees north (negative: south), -90...90.
    public var latitude: Double
    /// Degrees east (negative: west), -180...180.
    public var longitude: Double
    /// Metres above sea level (negative below), when known.
    public var altitude: Double?

    /// A location; latitude and longitude in signed decimal degrees.
    public init(latitude: Double, longitude: Double, altitude: Double? = nil) {
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
    }

    /// Whether the coordinates are finite and on Earth (latitude within ±90°, longitude within ±180°).
    package var isValid: Bool {
        latitude.isFinite && longitude.isFinite && abs(latitude) <= 90 && abs(longitude) <= 180
            && (altitude?.isFinite ?? true)
    }
}
