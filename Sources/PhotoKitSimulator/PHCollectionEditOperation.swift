#if !canImport(ObjectiveC)
    /// Edits an app can make to a collection. Raw values match Photos.
    public enum PHCollectionEditOperation: Int, Sendable, Hashable {
        /// Delete things the collection contains.
        case deleteContent = 1
        /// Remove things from the collection without deleting them from the library.
        case removeContent = 2
        /// Add things from other collections.
        case addContent = 3
        /// Create new things in the collection.
        case createContent = 4
        /// Change the order of the contents.
        case rearrangeContent = 5
        /// Delete the collection itself.
        case delete = 6
        /// Rename the collection.
        case rename = 7
    }
#endif
