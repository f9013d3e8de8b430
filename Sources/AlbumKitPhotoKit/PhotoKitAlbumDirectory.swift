import AlbumKitCore
import Foundation

#if canImport(Photos)
    import CoreLocation
    import Photos
#else
    import PhotoKitSimulator
#endif
#if canImport(UIKit)
    import UIKit
#endif

/// The resolution rule's lookups, answered by Photos fetches.
struct PhotoKitAlbumDirectory: AlbumDirectory {
    let store: any AlbumIdentifierStore

    func rememberedAlbumID(for title: AlbumTitle) throws -> String? { store.albumIdentifier(forTitleKey: title.key) }

    func albumExists(id: String) throws -> Bool { PhotoKitBackend.usableAlbum(id) != nil }

    /// The album to use among regular albums titled `title` when none is remembered — the same one
    /// on every call, whatever order Photos fetches them in (it documents none, and cannot sort
    /// asset collections by creation date).
    ///
    /// The rule, on documented keys: the album whose photos go back furthest (earliest
    /// `startDate`; empty albums last), then the one holding most (`estimatedAssetCount`), then
    /// the smallest `localIdentifier` (stable on the device, so the choice never flips). Once
    /// chosen, its identifier is remembered and wins from then on.
    func oldestAlbum(titled title: AlbumTitle) throws -> String? {
        let options = PHFetchOptions()
        options.predicate = NSPredicate(format: "title = %@ OR title = %@", title.text, title.key)
        let matches = PHAssetCollection.fetchAssetCollections(with: .album, subtype: .albumRegular, options: options)
        let candidates = (0..<matches.count).map { matches.object(at: $0) }.filter {
            $0.localizedTitle?.precomposedStringWithCanonicalMapping == title.key && $0.canPerform(.addContent)
        }
        return candidates.min(by: Self.precedes)?.localIdentifier
    }

    /// Whether `a` comes before `b` in the rule of ``oldestAlbum(titled:)``.
    static func precedes(_ a: PHAssetCollection, _ b: PHAssetCollection) -> Bool {
        let start = (a.startDate ?? .distantFuture, b.startDate ?? .distantFuture)
        if start.0 != start.1 { return start.0 < start.1 }
        let count = (known(a.estimatedAssetCount), known(b.estimatedAssetCount))
        if count.0 != count.1 { return count.0 > count.1 }
        return a.localIdentifier < b.localIdentifier
    }

    /// `estimatedAssetCount`, with `NSNotFound` ("Photos cannot tell cheaply") as 0.
    private static func known(_ count: Int) -> Int { count == NSNotFound ? 0 : count }
}
