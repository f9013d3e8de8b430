import Foundation

import AlbumKitCore

/// Where the PhotoKit backend remembers each album's local identifier, keyed by the album title's
/// NFC form. The default is `UserDefaults.standard`; tests inject their own.
///
/// ```swift
/// let store = UserDefaultsAlbumStore(suiteName: "group.com.example.app")   // an app group's defaults
/// let library = PhotoLibrary.photos(rememberingAlbumsIn: store)
/// ```
public protocol AlbumIdentifierStore: Sendable {
    /// The remembered identifier for a title key.
    func albumIdentifier(forTitleKey key: String) -> String?
    /// Remembers `identifier` for a title key.
    func remember(_ identifier: String, forTitleKey key: String)
}

/// An ``AlbumIdentifierStore`` in `UserDefaults`, under keys `AlbumKit.album.<title>`.
///
/// ```swift
/// let store = UserDefaultsAlbumStore()
/// ```
public struct UserDefaultsAlbumStore: AlbumIdentifierStore {
    private let suiteName: String?

    /// Stores in the standard defaults, or in the suite named `suiteName` (e.g. an app group).
    public init(suiteName: String? = nil) { self.suiteName = suiteName }

    private var defaults: UserDefaults { suiteName.flatMap(UserDefaults.init(suiteName:)) ?? .standard }

    /// The remembered identifier.
    public func albumIdentifier(forTitleKey key: String) -> String? {
        defaults.string(forKey: "AlbumKit.album." + key)
    }

    /// Remembers an identifier.
    public func remember(_ identifier: String, forTitleKey key: String) {
        defaults.set(identifier, forKey: "AlbumKit.album." + key)
    }
}

/// An ``AlbumIdentifierStore`` that lives only as long as the process (tests, previews).
///
/// ```swift
/// let store = InMemoryAlbumStore()
/// ```
public final class InMemoryAlbumStore: AlbumIdentifierStore {
    private let values = Locked<[String: String]>([:])

    /// An empty store.
    public init() {}

    /// The remembered identifier.
    public func albumIdentifier(forTitleKey key: String) -> String? { values.withLock { $0[key] } }

    /// Remembers an identifier.
    public func remember(_ identifier: String, forTitleKey key: String) {
        values.withLock { $0[key] = identifier }
    }
}
