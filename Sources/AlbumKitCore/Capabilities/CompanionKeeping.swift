/// A library that keeps ``Media/companions`` (sidecars, the raw of a pair) with their photo
/// (catalog, folders, shared, Photos). The saver reports a companion given to any other library
/// in ``SavedAsset/companionsLeftOut``. It asks nothing more of the library: its commit stores the
/// staged companions.
///
/// ```swift
/// extension CatalogBackend: CompanionKeeping {}
/// ```
package protocol CompanionKeeping: LibraryBackend {}
