/// A file the library already holds, found by ``FileRecognition/recognise(_:in:)`` before
/// anything was copied: the asset, and whether it is in the album the save asked for.
///
/// ```swift
/// if let found = recognised[index], !found.isMember { albumMisses.append(found.assetID) }
/// ```
package struct RecognisedFile: Sendable, Hashable {
    /// The asset holding the file.
    package var assetID: String
    /// The album looked in, when the save asked for one and it exists.
    package var albumID: String?
    /// Whether the asset is in that album already (always, in a folder library: the album's folder
    /// is where it was found).
    package var isMember: Bool
    /// The asset is recently deleted: a save brings it back (so the saver saves the file as usual
    /// and the library finds it then).
    package var isDeleted: Bool
    /// The probe's companions the asset does not hold as they are now (a sidecar edited since the
    /// photo was saved, or one new): the saver saves such a file as usual, and the library updates
    /// the asset's companions then.
    package var companionsToUpdate: [String]

    package init(
        assetID: String, albumID: String?, isMember: Bool, isDeleted: Bool = false, companionsToUpdate: [String] = []
    ) {
        self.assetID = assetID
        self.albumID = albumID
        self.isMember = isMember
        self.isDeleted = isDeleted
        self.companionsToUpdate = companionsToUpdate
    }
}
