#if !canImport(ObjectiveC)
    import Foundation

    /// A description of changes to the library, passed to change observers.
    ///
    /// Holds the library as it was right after the change, so change details compare a fetch
    /// result the app made earlier with the same fetch performed on that state.
    // Not Sendable: Apple's declaration does not say it is (the stricter choice).
    public class PHChange: NSObject {
        private let after: LibraryState

        init(after: LibraryState) {
            self.after = after
        }

        /// The differences between `fetchResult` and the same fetch performed after the change;
        /// `nil` when nothing in it changed (or it is not a fetch result the library made).
        public func changeDetails<T: PHObject>(for fetchResult: PHFetchResult<T>) -> PHFetchResultChangeDetails<T>? {
            guard let refetch = fetchResult.refetch else { return nil }
            var state = after
            let current = PHFetchResult<T>(objects: refetch(&state), refetch: refetch)
            let details = PHFetchResultChangeDetails(from: fetchResult, to: current, changedObjects: [])
            if details.isEmpty { return nil }
            if let limit = after.incrementalChangeLimit, details.describedCount > limit {
                // Too many changes to describe: the app reloads from the result after them.
                return PHFetchResultChangeDetails(withoutDetailsFrom: fetchResult, to: current)
            }
            return details
        }
    }
#endif
