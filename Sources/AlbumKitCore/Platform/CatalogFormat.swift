/// What marks a file as an AlbumKit catalog, for the folder library, which must never take a
/// catalog library (or a folder inside one) for a folder of albums.
package enum CatalogFormat {
    /// `PRAGMA application_id` of every AlbumKit catalog: "ALBK".
    package static let applicationID: Int64 = 0x414C_424B
}
