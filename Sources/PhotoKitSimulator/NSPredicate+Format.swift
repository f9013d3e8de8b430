#if !canImport(ObjectiveC)
    import Foundation

    extension NSPredicate {
        /// Stand-in for Foundation's format initializer, unavailable in swift-corelibs-foundation.
        ///
        /// The predicate only carries its format and arguments for `PHFetchOptions`; it
        /// evaluates to `true` anywhere else.
        public convenience init(format predicateFormat: String, _ args: any CVarArg...) {
            self.init(format: predicateFormat, argumentArray: args)
        }

        /// Stand-in for Foundation's `init(format:argumentArray:)`.
        public convenience init(format predicateFormat: String, argumentArray arguments: [Any]?) {
            let recorded = PredicateFormat(
                format: predicateFormat,
                arguments: (arguments ?? []).map(PredicateValue.init(argument:))
            )
            self.init(block: { object, _ in
                (object as? FormatProbe)?.predicate = recorded
                return true
            })
        }
    }
#endif
