import AlbumKitCore
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Collects the changes one ``CatalogBackend/record(_:_:)`` step makes, applying each to the
/// index at once so the step's later reads see it.
final class ChangeRecorder {
    let index: CatalogIndex
    private(set) var changes: [CatalogChange] = []
    private(set) var purged: [String] = []

    init(index: CatalogIndex) { self.index = index }

    var db: Database { index.db }

    func record(_ change: CatalogChange) throws {
        purged += try index.apply(change)
        changes.append(change)
    }
}
