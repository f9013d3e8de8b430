#if !canImport(ObjectiveC)
    import Foundation

    extension NSSortDescriptor {
        /// Stand-in for Foundation's key-based initializer, unavailable in swift-corelibs-foundation.
        ///
        /// The descriptor carries its key for `PHFetchOptions.sortDescriptors`; `ascending`
        /// reads as usual.
        public convenience init(key: String, ascending: Bool) {
            let recordedKey = key
            self.init(
                keyPath: \NSObject.self, ascending: ascending,
                comparator: { lhs, _ in
                    (lhs as? FormatProbe)?.sortKey = recordedKey
                    return .orderedSame
                })
        }
    }
#endif
