#if !canImport(ObjectiveC)
    /// Which version of an asset's image `PHImageManager` renders.
    ///
    /// Raw values match Photos. The simulator keeps no edits: every version is the original.
    public enum PHImageRequestOptionsVersion: Int, Sendable, Hashable {
        /// With edits applied (the unadjusted image when there are none).
        case current = 0
        /// Without edits.
        case unadjusted = 1
        /// The original (RAW for a RAW+JPEG pair).
        case original = 2
    }
#endif
