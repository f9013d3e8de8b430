#if !canImport(ObjectiveC)
    /// How closely a delivered image matches the size asked for.
    ///
    /// Raw values match Photos.
    public enum PHImageRequestOptionsResizeMode: Int, Sendable, Hashable {
        /// Not resized: the image at its own size.
        case none = 0
        /// The size is a hint: the image may be larger.
        case fast = 1
        /// Exactly the size asked for (as the content mode fits it).
        case exact = 2
    }
#endif
