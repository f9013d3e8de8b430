// The simulator exists only where Photos does not (Linux): on Apple platforms this target is empty,
// and the backend is tried on a device with Docs/apple.md's manual test plan.
#if !canImport(ObjectiveC)
    import AlbumKitConformance
    import AlbumKitCore
    import Foundation
    import PhotoKitSimulator

    @testable import AlbumKitPhotoKit

    /// One simulated Photos library, an AlbumKit library on it, and the example media.
    struct PhotoKitHarness {
        let simulation = PhotoKitSimulation()
        let store = InMemoryAlbumStore()
        var library: PhotoLibrary { PhotoLibrary(backend: PhotoKitBackend(store: store)) }

        static let jpeg = Fixture.jpeg
        static let heic = Fixture.heic
        static let video = Fixture.video

        /// A harness whose user answers `status` to every prompt.
        init(answering status: PHAuthorizationStatus = .authorized) {
            simulation.setAuthorizationAnswer(status, for: .readWrite)
            simulation.setAuthorizationAnswer(status, for: .addOnly)
        }

        /// Runs `body` with this harness's library as `PHPhotoLibrary.shared()`.
        func run<T>(_ body: () async throws -> T) async rethrows -> T {
            try await simulation.run { try await body() }
        }
    }

    /// A tiny thread-safe box for test bookkeeping.
    final class Box<Value: Sendable>: Sendable {
        private let storage: Locked<Value>
        init(_ value: Value) { storage = Locked(value) }
        var value: Value { storage.withLock { $0 } }
        func update(_ body: (inout Value) -> Void) { storage.withLock { body(&$0) } }
    }
#endif
