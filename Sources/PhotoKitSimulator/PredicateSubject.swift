#if !canImport(ObjectiveC)
    /// A Photos model class that fetch options can filter and sort.
    protocol PredicateSubject: PHObject {
        /// The keys Photos documents for predicates and sort descriptors of this class.
        static var supportedKeys: Set<String> { get }
        /// The value of a supported key.
        func predicateValue(forKey key: String) -> PredicateValue
    }
#endif
