/// What the TIFF/EXIF reader found: the EXIF fields AlbumKit records, plus TIFF structure facts
/// used to tell TIFF, DNG and camera raw apart.
struct EXIFInfo: Sendable, Equatable {
    var orientation: Int?
    var make: String?
    var model: String?
    /// LensModel (0xA434 in the EXIF directory).
    var lens: String?
    /// Rating (0x4746 in IFD0, as Windows writes it), else XMP's `xmp:Rating`: -1 to 5.
    var rating: Int?
    var captureDate: String?
    var latitude: Double?
    var longitude: Double?
    var altitude: Double?
    /// Size of the main image (IFD0, or the full-size SubIFD of a DNG/raw).
    var width: Int?
    var height: Int?
    /// The raw size in a Fujifilm RAF's Fuji IFD (IFD0 tag 0xF000: 0xF001 width, 0xF002 height).
    var rawWidth: Int?
    var rawHeight: Int?
    /// DNGVersion (0xC612) is present.
    var isDNG = false
    /// An image directory holds colour-filter-array or linear raw data, or raw-only compression.
    var hasRawData = false
    /// IFD0 points to SubIFDs (0x014A).
    var hasSubIFDs = false

    /// Copies the EXIF fields (orientation, date, camera, GPS) into `metadata`, and applies the
    /// orientation to its width and height.
    func apply(to metadata: inout MediaMetadata) {
        metadata.orientation = orientation
        metadata.captureDate = captureDate
        metadata.make = make
        metadata.model = model
        metadata.lens = lens
        metadata.rating = rating
        metadata.latitude = latitude
        metadata.longitude = longitude
        metadata.altitude = altitude
    }
}

extension MediaMetadata {
    /// Sets the displayed size from the stored size and an EXIF orientation (5–8 swap the axes).
    mutating func setSize(width: Int?, height: Int?, orientation: Int?) {
        if let orientation, (5...8).contains(orientation) {
            self.width = height
            self.height = width
        } else {
            self.width = width
            self.height = height
        }
    }
}
