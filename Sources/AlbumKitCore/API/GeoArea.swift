import Foundation

/// A part of the Earth's surface a listing keeps photos from: a box between two latitudes and two
/// longitudes, or the ground within a distance of a point.
///
/// ```swift
/// let paris = GeoArea.near(GeoLocation(latitude: 48.8566, longitude: 2.3522), kilometres: 10)
/// let alps = GeoArea.box(south: 45.5, west: 6.0, north: 47.0, east: 10.5)
/// let page = try await library.assets(orderedBy: .captureDate, matching: AssetFilter(area: paris))
/// ```
public enum GeoArea: Sendable, Hashable {
    /// Latitudes from `south` to `north` and longitudes from `west` eastwards to `east`, bounds
    /// included; a `west` greater than `east` crosses the 180th meridian (`west: 170, east: -170`).
    case box(south: Double, west: Double, north: Double, east: Double)
    /// Within `kilometres` of `center`, measured along the ground (great-circle distance).
    case near(GeoLocation, kilometres: Double)

    /// Whether `location` lies in the area.
    ///
    /// ```swift
    /// GeoArea.box(south: 0, west: 0, north: 10, east: 10).contains(GeoLocation(latitude: 5, longitude: 5))  // true
    /// ```
    public func contains(_ location: GeoLocation) -> Bool {
        switch self {
        case .box(let south, let west, let north, let east):
            guard location.latitude >= south, location.latitude <= north else { return false }
            if west <= east { return location.longitude >= west && location.longitude <= east }
            return location.longitude >= west || location.longitude <= east
        case .near(let center, let kilometres):
            return Self.kilometres(from: center, to: location) <= kilometres
        }
    }

    /// The great-circle distance between two places on a sphere of the Earth's mean radius
    /// (the haversine formula; within 0.5% of the distance on the WGS 84 ellipsoid).
    ///
    /// ```swift
    /// GeoArea.kilometres(from: paris, to: london)  // about 344
    /// ```
    public static func kilometres(from a: GeoLocation, to b: GeoLocation) -> Double {
        let radians = Double.pi / 180
        let deltaLatitude = (b.latitude - a.latitude) * radians
        let deltaLongitude = (b.longitude - a.longitude) * radians
        let h =
            sin(deltaLatitude / 2) * sin(deltaLatitude / 2)
            + cos(a.latitude * radians) * cos(b.latitude * radians) * sin(deltaLongitude / 2) * sin(deltaLongitude / 2)
        return 2 * 6_371.0088 * asin(min(1, sqrt(h)))
    }
}
