#if !canImport(ObjectiveC)
    import Foundation
    import PhotoKitSimulator
    import Synchronization

    /// A thread-safe list of values recorded from change blocks and handlers.
    final class Recorder<Value: Sendable>: Sendable {
        private let storage = Mutex<[Value]>([])

        func append(_ value: Value) { storage.withLock { $0.append(value) } }

        var values: [Value] { storage.withLock { $0 } }
    }

    /// The outcome of `performChanges(_:completionHandler:)`.
    struct Completion: Sendable {
        let success: Bool
        let error: (any Error)?
        let onCompletionQueue: Bool
        let onMainThread: Bool

        /// The error as `NSError` (unconditional bridging: on Linux `as? NSError` on an
        /// `any Error` does not bridge a Swift error, so write `as NSError`).
        var nsError: NSError? { error.map { $0 as NSError } }

        /// The error's Photos code, if it is a `PHPhotosError`.
        var code: PHPhotosError.Code? { (error as? PHPhotosError)?.code }
    }

    extension PhotoKitSimulation {
        /// Runs `block` through the completion-handler form and waits for the handler.
        func perform(_ block: @escaping () -> Void) async -> Completion {
            let simulation = self
            return await withCheckedContinuation { continuation in
                library.performChanges(block) { success, error in
                    continuation.resume(
                        returning: Completion(
                            success: success, error: error,
                            onCompletionQueue: simulation.isRunningOnCompletionQueue,
                            onMainThread: Thread.isMainThread
                        ))
                }
            }
        }
    }

    /// A scratch directory removed when the value is deinitialized.
    final class TemporaryDirectory {
        let url: URL

        init() throws {
            url = FileManager.default.temporaryDirectory
                .appendingPathComponent("PhotoKitSimulatorTests-\(UUID().uuidString)", isDirectory: true)
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        }

        deinit { try? FileManager.default.removeItem(at: url) }

        /// Writes `bytes` to `name` and returns its URL.
        func file(_ name: String, bytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3, 0xFF, 0xD9]) throws -> URL {
            let file = url.appendingPathComponent(name)
            try Data(bytes).write(to: file)
            return file
        }
    }

    /// JPEG-looking bytes (the simulator does not decode; it only needs non-empty data).
    let jpegBytes = Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 16, 0x4A, 0x46, 0x49, 0x46, 0xFF, 0xD9])
    /// QuickTime-looking bytes.
    let movieBytes = Data([
        0, 0, 0, 20, 0x66, 0x74, 0x79, 0x70, 0x71, 0x74, 0x20, 0x20, 0, 0, 0, 0, 0x71, 0x74, 0x20, 0x20,
    ])

    /// A local identifier in Photos' format with the given entity code.
    func isLocalIdentifier(_ id: String?, entity: String) -> Bool {
        guard let id else { return false }
        let parts = id.split(separator: "/", omittingEmptySubsequences: false)
        return parts.count == 3 && UUID(uuidString: String(parts[0])) != nil
            && parts[0] == parts[0].uppercased() && parts[1] == "L0" && parts[2] == entity
    }

    /// A simulation whose app already has full read-write access.
    func authorizedSimulation() -> PhotoKitSimulation {
        let simulation = PhotoKitSimulation()
        simulation.setAuthorizationStatus(.authorized, for: .readWrite)
        return simulation
    }

    /// Title predicate options.
    func titled(_ title: String, key: String = "title") -> PHFetchOptions {
        let options = PHFetchOptions()
        options.predicate = NSPredicate(format: "\(key) = %@", title)
        return options
    }
#endif
