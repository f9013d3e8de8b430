#if !canImport(ObjectiveC)
    import Dispatch
    import Foundation
    import Synchronization

    /// The user's photo library: authorization, change blocks, and (through the model
    /// classes) fetches. Simulated in memory.
    ///
    /// `shared()` returns the library of ``PhotoKitSimulation/current``, a task-local, so
    /// tests running in parallel each get their own library. Each library runs change
    /// blocks on its own serial change queue and calls completion and authorization
    /// handlers on its own serial completion queue (never the main queue).
    public final class PHPhotoLibrary: NSObject, Sendable {
        /// The library's contents, authorization and scripting.
        let state = Mutex(LibraryState())
        /// The serial queue that runs change blocks and commits.
        let changeQueue = DispatchQueue(label: "PhotoKitSimulator.changes")
        /// The serial queue that runs completion and authorization handlers.
        let completionQueue = DispatchQueue(label: "PhotoKitSimulator.completions")
        /// The serial queue that calls change observers.
        let observerQueue = DispatchQueue(label: "PhotoKitSimulator.observers")
        /// The registered change observers, held weakly.
        let observers = Mutex<[WeakObserver]>([])
        let changeQueueKey = DispatchSpecificKey<Bool>()
        let completionQueueKey = DispatchSpecificKey<Bool>()

        override init() {
            super.init()
            changeQueue.setSpecific(key: changeQueueKey, value: true)
            completionQueue.setSpecific(key: completionQueueKey, value: true)
        }

        /// The shared library: the library of ``PhotoKitSimulation/current``. Usable from any thread.
        public class func shared() -> PHPhotoLibrary {
            PhotoKitSimulation.current.library
        }

        // MARK: Authorization

        /// The app's current authorization for `accessLevel`. Never prompts.
        public class func authorizationStatus(for accessLevel: PHAccessLevel) -> PHAuthorizationStatus {
            shared().state.withLock { $0.authorization.status(for: accessLevel) }
        }

        /// Prompts the user for `accessLevel` if they were never asked, then calls `handler`
        /// with the status on the library's completion queue.
        public class func requestAuthorization(
            for accessLevel: PHAccessLevel, handler: @escaping @Sendable (PHAuthorizationStatus) -> Void
        ) {
            let library = shared()
            let status = library.state.withLock { $0.authorization.request(accessLevel) }
            library.completionQueue.async {
                library.withSimulationBound { handler(status) }
            }
        }

        /// Prompts the user for `accessLevel` if they were never asked; returns the status.
        public class func requestAuthorization(for accessLevel: PHAccessLevel) async -> PHAuthorizationStatus {
            await withCheckedContinuation { continuation in
                requestAuthorization(for: accessLevel) { continuation.resume(returning: $0) }
            }
        }

        /// The read-write status, with `.limited` reported as `.authorized`.
        ///
        /// To be deprecated in Photos (`API_TO_BE_DEPRECATED`, no warning); use `authorizationStatus(for:)`.
        public class func authorizationStatus() -> PHAuthorizationStatus {
            let status = authorizationStatus(for: .readWrite)
            return status == .limited ? .authorized : status
        }

        /// Requests read-write access, reporting `.limited` as `.authorized`.
        ///
        /// To be deprecated in Photos (`API_TO_BE_DEPRECATED`, no warning); use `requestAuthorization(for:handler:)`.
        public class func requestAuthorization(_ handler: @escaping @Sendable (PHAuthorizationStatus) -> Void) {
            requestAuthorization(for: .readWrite) { handler($0 == .limited ? .authorized : $0) }
        }

        // MARK: Changes

        /// Runs `changeBlock` on the library's serial change queue, commits its requests
        /// atomically, then calls `completionHandler` on the completion queue.
        ///
        /// Calling this inside a change block traps (Photos raises an exception). When the
        /// app never asked for authorization, the commit prompts first.
        public func performChanges(
            _ changeBlock: @escaping () -> Void,
            completionHandler: (@Sendable (Bool, (any Error)?) -> Void)? = nil
        ) {
            precondition(
                ChangeTransaction.current == nil,
                "Nesting change requests is not allowed: performChanges inside a change block")
            let block = ChangeBlock(changeBlock)
            changeQueue.async {
                let error = self.execute(block)
                guard let completionHandler else { return }
                self.completionQueue.async {
                    self.withSimulationBound { completionHandler(error == nil, error) }
                }
            }
        }

        /// Runs `changeBlock` and commits its requests atomically; throws `PHPhotosError`.
        public func performChanges(_ changeBlock: @escaping () -> Void) async throws {
            let block = ChangeBlock(changeBlock)
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                performChanges(block.body) { success, error in
                    if success {
                        continuation.resume()
                    } else {
                        continuation.resume(throwing: error ?? PHPhotosError(.internalError))
                    }
                }
            }
        }

        /// Runs `changeBlock` on the change queue, commits, and waits; throws `PHPhotosError`.
        ///
        /// Don't call it from the main thread in an app (Photos may prompt). Calling it inside
        /// a change block, or from the change queue, traps.
        public func performChangesAndWait(_ changeBlock: @escaping () -> Void) throws {
            precondition(
                ChangeTransaction.current == nil,
                "Nesting change requests is not allowed: performChangesAndWait inside a change block")
            precondition(
                DispatchQueue.getSpecific(key: changeQueueKey) == nil,
                "performChangesAndWait on the photo library's change queue would deadlock")
            let block = ChangeBlock(changeBlock)
            if let error = changeQueue.sync(execute: { execute(block) }) {
                throw error
            }
        }

        // MARK: Change observation

        /// Registers `observer` to be told about every change to the library, on a serial queue.
        ///
        /// Assumption: Apple does not say whether Photos keeps the observer alive; the simulator
        /// holds it weakly, so an app that does not keep its observer stops hearing changes here.
        public func register(_ observer: any PHPhotoLibraryChangeObserver) {
            observers.withLock { $0.removeAll { $0.observer == nil || $0.observer === observer } }
            observers.withLock { $0.append(WeakObserver(observer: observer)) }
        }

        /// Stops telling `observer` about changes.
        public func unregisterChangeObserver(_ observer: any PHPhotoLibraryChangeObserver) {
            observers.withLock { $0.removeAll { $0.observer == nil || $0.observer === observer } }
        }

        /// Tells every registered observer that the library changed, with the state as it is now.
        ///
        /// Every publication first records what changed in the persistent change history, whether
        /// or not an observer is registered.
        func publishChange() {
            let after = state.withLock { state in
                state.history.record(assets: state.assets, albums: state.albums)
                return state
            }
            let observers = self.observers.withLock { $0.compactMap(\.observer) }
            guard !observers.isEmpty else { return }
            let box = ObserverList(observers: observers)
            observerQueue.async {
                self.withSimulationBound {
                    for observer in box.observers { observer.photoLibraryDidChange(PHChange(after: after)) }
                }
            }
        }

        // MARK: Persistent changes

        /// The position of the library's persistent change history now (iOS 16, macOS 13).
        public var currentChangeToken: PHPersistentChangeToken {
            state.withLock {
                PHPersistentChangeToken(libraryIdentifier: $0.history.libraryIdentifier, position: $0.history.position)
            }
        }

        /// The changes made since `token`, oldest first, whoever made them and whether or not the
        /// app was running (iOS 16, macOS 13).
        ///
        /// Throws `persistentChangeTokenExpired` when the history no longer reaches back to the
        /// token (the app then reloads what it shows), and `accessUserDenied` without read access.
        /// Assumption: Apple does not say which error comes without read access, nor whether limited
        /// access filters the history; the simulator reports every change to an app with limited access.
        public func fetchPersistentChanges(since token: PHPersistentChangeToken) throws -> PHPersistentChangeFetchResult
        {
            let (entries, library) = try state.withLock { state -> ([ChangeHistory.Entry], String) in
                let status = state.authorization.status(for: .readWrite)
                guard status == .authorized || status == .limited else { throw PHPhotosError(.accessUserDenied) }
                return (try state.history.changes(since: token), state.history.libraryIdentifier)
            }
            return PHPersistentChangeFetchResult(
                changes: entries.map { PHPersistentChange(entry: $0, libraryIdentifier: library) })
        }

        /// Why the library is unavailable, or `nil` (the simulated library is always available).
        public var unavailabilityReason: (any Error)? { nil }

        /// Runs `body` with ``PhotoKitSimulation/current`` bound to this library.
        func withSimulationBound<Result>(_ body: () throws -> Result) rethrows -> Result {
            try PhotoKitSimulation.$current.withValue(PhotoKitSimulation(library: self), operation: body)
        }
    }
#endif
