#if !canImport(ObjectiveC)
    import Foundation

    /// An object the simulator hands to `NSPredicate.evaluate(with:)` and
    /// `NSSortDescriptor.compare(_:to:)` to read back the format or key recorded by the
    /// Linux stand-in initializers (swift-corelibs-foundation supports neither predicate
    /// strings nor key-based sort descriptors).
    ///
    /// The recorded values live inside the predicate's block and the descriptor's
    /// comparator, so no side table and no object-identity bookkeeping are needed.
    final class FormatProbe: NSObject {
        /// The predicate recorded by `NSPredicate(format:_:)`.
        var predicate: PredicateFormat?
        /// The key recorded by `NSSortDescriptor(key:ascending:)`.
        var sortKey: String?

        /// The format recorded in `predicate`, or `nil` when it was not made by the stand-in.
        static func format(of predicate: NSPredicate) -> PredicateFormat? {
            let probe = FormatProbe()
            _ = predicate.evaluate(with: probe)
            return probe.predicate
        }

        /// The key recorded in `descriptor`, or `nil` when it was not made by the stand-in.
        static func key(of descriptor: NSSortDescriptor) -> String? {
            let probe = FormatProbe()
            _ = descriptor.compare(probe, to: probe)
            return probe.sortKey
        }
    }
#endif
