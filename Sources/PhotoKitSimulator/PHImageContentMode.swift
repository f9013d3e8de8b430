#if !canImport(ObjectiveC)
    /// How an image fits the size asked of `PHImageManager` when their aspect ratios differ.
    ///
    /// Raw values match Photos.
    public enum PHImageContentMode: Int, Sendable, Hashable {
        /// Fits inside the size, keeping the aspect ratio.
        case aspectFit = 0
        /// Fills the size, keeping the aspect ratio (part of the image may lie outside it).
        case aspectFill = 1

        /// Photos' default: ``aspectFit``.
        public static let `default` = PHImageContentMode.aspectFit
    }
#endif
