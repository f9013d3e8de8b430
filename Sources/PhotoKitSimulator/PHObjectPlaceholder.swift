#if !canImport(ObjectiveC)
    /// A read-only proxy for an object a change request will create.
    ///
    /// It has the same local identifier as the created object and compares equal to it.
    /// Inside the change block it can be passed to `addAssets(_:)`; after the block use
    /// `localIdentifier` to fetch the created object.
    // @unchecked Sendable: restated from PHObject (no stored properties of its own).
    public class PHObjectPlaceholder: PHObject, @unchecked Sendable {}
#endif
