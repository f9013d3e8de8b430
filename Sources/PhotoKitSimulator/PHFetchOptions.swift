#if !canImport(ObjectiveC)
    import Foundation

    /// Options for a fetch: filter, sort order, limit, hidden assets.
    ///
    /// Predicates must come from `NSPredicate(format:_:)` and sort descriptors from
    /// `NSSortDescriptor(key:ascending:)`, with the keys Photos documents for the fetched
    /// class (for collections: `SELF`, `localIdentifier`, `localizedTitle` or `title`,
    /// `startDate`, `endDate`, `estimatedAssetCount`; for assets: `SELF`, `localIdentifier`,
    /// `creationDate`, `modificationDate`, `mediaType`, `mediaSubtypes`, `duration`,
    /// `pixelWidth`, `pixelHeight`, `favorite`, `hidden`, `burstIdentifier`). Anything else
    /// traps, as Photos raises an exception for unsupported predicates.
    public class PHFetchOptions: NSObject, NSCopying {
        /// Only objects matching the predicate are fetched.
        public var predicate: NSPredicate?
        /// The order of the results; `nil` keeps the default order (creation order, album order).
        public var sortDescriptors: [NSSortDescriptor]?
        /// Whether hidden assets are included (default `false`).
        public var includeHiddenAssets: Bool = false
        /// Whether all burst assets are included (default `false`).
        public var includeAllBurstAssets: Bool = false
        /// Which asset sources are fetched (default: none set, meaning the user's library).
        public var includeAssetSourceTypes: PHAssetSourceType = []
        /// The maximum number of objects; 0 means no limit.
        public var fetchLimit: Int = 0
        /// Whether fetch results track incremental change details (default `true`).
        public var wantsIncrementalChangeDetails: Bool = true

        /// Default options.
        public override init() {}

        /// A copy of the options.
        public func copy(with zone: NSZone? = nil) -> Any {
            let copy = PHFetchOptions()
            copy.predicate = predicate
            copy.sortDescriptors = sortDescriptors
            copy.includeHiddenAssets = includeHiddenAssets
            copy.includeAllBurstAssets = includeAllBurstAssets
            copy.includeAssetSourceTypes = includeAssetSourceTypes
            copy.fetchLimit = fetchLimit
            copy.wantsIncrementalChangeDetails = wantsIncrementalChangeDetails
            return copy
        }

        /// Applies the predicate, sort descriptors and limit to `objects`.
        func apply<Object: PredicateSubject>(to objects: [Object]) -> [Object] {
            var result = objects
            if let predicate {
                guard let format = FormatProbe.format(of: predicate), let expression = PredicateExpression.parse(format)
                else {
                    preconditionFailure("Unsupported predicate in fetch options: \(predicate)")
                }
                for key in expression.keys where !Object.supportedKeys.contains(key) {
                    preconditionFailure("Unsupported predicate in fetch options: key '\(key)' for \(Object.self)")
                }
                result = result.filter { object in expression.evaluate { object.predicateValue(forKey: $0) } }
            }
            if let sortDescriptors, !sortDescriptors.isEmpty {
                let keys: [(key: String, ascending: Bool)] = sortDescriptors.map { descriptor in
                    guard let key = FormatProbe.key(of: descriptor), Object.supportedKeys.contains(key) else {
                        preconditionFailure("Unsupported sort descriptor in fetch options: \(descriptor)")
                    }
                    return (key, descriptor.ascending)
                }
                result = result.enumerated().sorted { lhs, rhs in
                    for (key, ascending) in keys {
                        let order = Self.order(
                            lhs.element.predicateValue(forKey: key), rhs.element.predicateValue(forKey: key))
                        if order != .orderedSame { return (order == .orderedAscending) == ascending }
                    }
                    return lhs.offset < rhs.offset
                }.map(\.element)
            }
            if fetchLimit > 0, result.count > fetchLimit {
                result = Array(result.prefix(fetchLimit))
            }
            return result
        }

        /// Orders values for sorting; `nil` sorts first.
        private static func order(_ lhs: PredicateValue, _ rhs: PredicateValue) -> ComparisonResult {
            switch (lhs, rhs) {
            case (.null, .null): return .orderedSame
            case (.null, _): return .orderedAscending
            case (_, .null): return .orderedDescending
            case (.string(let a), .string(let b)):
                return a == b ? .orderedSame : (a < b ? .orderedAscending : .orderedDescending)
            default:
                let a = lhs.number ?? 0
                let b = rhs.number ?? 0
                return a == b ? .orderedSame : (a < b ? .orderedAscending : .orderedDescending)
            }
        }
    }
#endif
