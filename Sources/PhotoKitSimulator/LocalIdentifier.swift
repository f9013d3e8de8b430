#if !canImport(ObjectiveC)
    import Foundation

    /// Local identifiers in Photos' format: an uppercase UUID, `/L0/`, and a three-digit
    /// entity code (`001` for assets, `040` for asset collections).
    enum LocalIdentifier {
        /// A new asset identifier, like `"9F983DBA-EC35-42B8-8773-B597CF782EDD/L0/001"`.
        static func asset() -> String { "\(UUID().uuidString)/L0/001" }

        /// A new asset collection identifier, like `"B84E8479-475C-4727-A4A4-B77AA9980897/L0/040"`.
        static func assetCollection() -> String { "\(UUID().uuidString)/L0/040" }
    }
#endif
