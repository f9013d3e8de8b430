#if !canImport(ObjectiveC)
    import Foundation

    /// A latitude or longitude in degrees (stand-in for CoreLocation's type).
    public typealias CLLocationDegrees = Double
    /// A distance in meters (stand-in for CoreLocation's type).
    public typealias CLLocationDistance = Double
    /// An accuracy in meters (stand-in for CoreLocation's type).
    public typealias CLLocationAccuracy = Double

    /// A geographic coordinate (stand-in for CoreLocation's struct).
    public struct CLLocationCoordinate2D: Sendable, Hashable {
        /// Latitude in degrees.
        public var latitude: CLLocationDegrees
        /// Longitude in degrees.
        public var longitude: CLLocationDegrees
        /// The coordinate 0, 0.
        public init() { self.init(latitude: 0, longitude: 0) }
        /// A coordinate from latitude and longitude in degrees.
        public init(latitude: CLLocationDegrees, longitude: CLLocationDegrees) {
            self.latitude = latitude
            self.longitude = longitude
        }
    }

    /// A location (minimal stand-in for CoreLocation's `CLLocation`, which `PHAsset.location`
    /// and `PHAssetChangeRequest.location` use).
    // @unchecked Sendable: NSObject is not Sendable on Linux; every stored property is a
    // `let` of a Sendable type, so instances are immutable and safe to share.
    public class CLLocation: NSObject, NSCopying, @unchecked Sendable {
        /// The coordinate.
        public let coordinate: CLLocationCoordinate2D
        /// Altitude in meters.
        public let altitude: CLLocationDistance
        /// Horizontal accuracy in meters; negative when invalid.
        public let horizontalAccuracy: CLLocationAccuracy
        /// Vertical accuracy in meters; negative when invalid.
        public let verticalAccuracy: CLLocationAccuracy
        /// When the location was determined.
        public let timestamp: Date

        /// A location at `latitude`, `longitude`.
        public convenience init(latitude: CLLocationDegrees, longitude: CLLocationDegrees) {
            self.init(
                coordinate: CLLocationCoordinate2D(latitude: latitude, longitude: longitude),
                altitude: 0, horizontalAccuracy: 0, verticalAccuracy: -1, timestamp: Date()
            )
        }

        /// A location with altitude and accuracies.
        public init(
            coordinate: CLLocationCoordinate2D, altitude: CLLocationDistance,
            horizontalAccuracy hAccuracy: CLLocationAccuracy, verticalAccuracy vAccuracy: CLLocationAccuracy,
            timestamp: Date
        ) {
            self.coordinate = coordinate
            self.altitude = altitude
            self.horizontalAccuracy = hAccuracy
            self.verticalAccuracy = vAccuracy
            self.timestamp = timestamp
        }

        /// Returns `self`: locations are immutable.
        public func copy(with zone: NSZone? = nil) -> Any { self }
    }
#endif
