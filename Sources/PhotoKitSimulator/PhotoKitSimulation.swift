#if !canImport(ObjectiveC)
    import Dispatch
    import Foundation

    /// The test-side control of a simulated photo library: reset it, script the user's
    /// authorization answers and actions, inject commit failures and delays, and inspect
    /// what was saved.
    ///
    /// ## One library per test
    /// `PHPhotoLibrary.shared()` returns `PhotoKitSimulation.current.library`, where
    /// ``current`` is a task-local. Outside any binding it is one process-wide default
    /// library. Swift Testing runs tests in parallel, so give each test its own library:
    /// ```swift
    /// @Test func savesIntoNewAlbum() async throws {
    ///     let simulation = PhotoKitSimulation()
    ///     simulation.setAuthorizationAnswer(.authorized, for: .readWrite)
    ///     try await simulation.run {
    ///         try await PHPhotoLibrary.shared().performChanges {
    ///             PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Trips")
    ///         }
    ///     }
    ///     #expect(simulation.albums.map(\.title) == ["Trips"])
    /// }
    /// ```
    /// Change blocks, completion handlers, authorization handlers and scripted hooks run
    /// with ``current`` bound to their library, so static Photos calls inside them (fetches,
    /// change-request constructors) reach the right library. Code that calls static Photos
    /// APIs from a detached task or a queue of its own must bind ``current`` itself.
    ///
    /// ## Semantics
    /// Change requests work only inside change blocks (elsewhere they trap, as Photos raises
    /// an exception); a block commits atomically after it returns, or not at all; fetch
    /// results and model objects are snapshots; album titles need not be unique. Access:
    /// `.notDetermined` until asked; `.addOnly` may only create assets (fetches are empty,
    /// blocks touching albums fail with `.accessUserDenied`); `.limited` sees only the assets
    /// the app created or the user selected and, unless ``limitedAccessAlbums`` says
    /// otherwise, cannot fetch or create albums; album fetches come in no set order
    /// (``albumFetchOrder``);
    /// `.denied`/`.restricted` fail with `.accessUserDenied`/`.accessRestricted`.
    ///
    /// ## Platforms
    /// The module compiles only where the Objective-C runtime is absent (Linux, Android,
    /// Windows): there it also supplies the Foundation and CoreLocation pieces Photos code
    /// needs (`NSFastEnumeration`, `NSPredicate(format:_:)`, `NSSortDescriptor(key:ascending:)`,
    /// `CLLocation`). On Apple platforms it is empty; use Photos itself.
    public struct PhotoKitSimulation: Sendable {
        /// The simulation `PHPhotoLibrary.shared()` uses in the current task (or thread).
        @TaskLocal public static var current = PhotoKitSimulation()

        /// The simulated library.
        public let library: PHPhotoLibrary

        /// A new, empty library: nothing determined, the user answers `.authorized` to prompts.
        public init() {
            self.library = PHPhotoLibrary()
        }

        init(library: PHPhotoLibrary) {
            self.library = library
        }

        /// Runs `body` with this simulation as ``current``.
        public func run<Result>(
            isolation: isolated (any Actor)? = #isolation,
            _ body: () async throws -> Result
        ) async rethrows -> Result {
            try await Self.$current.withValue(self, operation: body, isolation: isolation)
        }

        /// Runs `body` synchronously with this simulation as ``current``.
        public func run<Result>(_ body: () throws -> Result) rethrows -> Result {
            try Self.$current.withValue(self, operation: body)
        }

        /// Empties the library and forgets authorization, counters, hooks, failures, delay
        /// and policy (work already queued still runs).
        public func reset() {
            library.state.withLock { $0 = LibraryState() }
        }

        // MARK: Authorization

        /// Sets what the user answers when prompted for `level` (default `.authorized`).
        /// For `.addOnly`, `.limited` means `.authorized`.
        public func setAuthorizationAnswer(_ status: PHAuthorizationStatus, for level: PHAccessLevel) {
            library.state.withLock { $0.authorization.setAnswer(status, for: level) }
        }

        /// Sets the current status for `level` without a prompt, as if the user changed Settings.
        public func setAuthorizationStatus(_ status: PHAuthorizationStatus, for level: PHAccessLevel) {
            library.state.withLock { $0.authorization.setStatus(status, for: level) }
        }

        /// How many times the user was prompted for authorization.
        public var authorizationPromptCount: Int { library.state.withLock { $0.authorization.prompts.count } }

        /// The access levels the user was prompted for, in order.
        public var authorizationPrompts: [PHAccessLevel] { library.state.withLock { $0.authorization.prompts } }

        // MARK: Counters

        /// How many change blocks ran (committed or not).
        public var changeBlockCount: Int { library.state.withLock { $0.changeBlockCount } }

        /// How many change blocks committed.
        public var committedChangeBlockCount: Int { library.state.withLock { $0.committedChangeBlockCount } }

        /// How many change blocks failed.
        public var failedChangeBlockCount: Int { library.state.withLock { $0.failedChangeBlockCount } }

        // MARK: Failures and timing

        /// Makes the next change block that passes authorization fail with `code`, committing
        /// nothing. Calling it several times fails that many blocks, in order.
        public func failNextCommit(with code: PHPhotosError.Code) {
            library.state.withLock { $0.nextCommitFailures.append(code) }
        }

        /// Makes change block `number` (1 for the library's first) fail with `code`.
        public func failCommit(ofChangeBlock number: Int, with code: PHPhotosError.Code) {
            library.state.withLock { $0.changeBlockFailures[number] = code }
        }

        /// A pause on the change queue between a block's return and its commit (default zero).
        public var commitDelay: Duration {
            get { library.state.withLock { $0.commitDelay } }
            nonmutating set { library.state.withLock { $0.commitDelay = newValue } }
        }

        /// What a commit does with requests about albums or assets that no longer exist
        /// (default `.fail(.identifierNotFound)`).
        public var staleReferencePolicy: StaleReferencePolicy {
            get { library.state.withLock { $0.staleReferencePolicy } }
            nonmutating set { library.state.withLock { $0.staleReferencePolicy = newValue } }
        }

        /// The order of album fetches without sort descriptors (default `.shuffled`: Apple
        /// documents no order).
        public var albumFetchOrder: AlbumFetchOrder {
            get { library.state.withLock { $0.albumFetchOrder } }
            nonmutating set { library.state.withLock { $0.albumFetchOrder = newValue } }
        }

        /// Whether an app with `.limited` access may see and change albums (default `.refused`;
        /// Apple documents neither outcome).
        public var limitedAccessAlbums: LimitedAccessAlbums {
            get { library.state.withLock { $0.limitedAccessAlbums } }
            nonmutating set { library.state.withLock { $0.limitedAccessAlbums = newValue } }
        }

        // MARK: Hooks (race windows)

        /// Runs `action` on the change queue before change block `number` runs
        /// (1 for the library's first), e.g. between an app's fetch and its change block.
        public func beforeChangeBlock(_ number: Int, run action: @escaping @Sendable (PhotoKitSimulation) -> Void) {
            library.state.withLock { $0.hooks.append(ScriptedHook(moment: .beforeChangeBlock(number), action: action)) }
        }

        /// Runs `action` after change block `number` returned and before it commits.
        public func beforeCommit(
            ofChangeBlock number: Int, run action: @escaping @Sendable (PhotoKitSimulation) -> Void
        ) {
            library.state.withLock { $0.hooks.append(ScriptedHook(moment: .beforeCommit(number), action: action)) }
        }

        /// Runs `action` after the next change block returns and before it commits.
        public func beforeNextCommit(run action: @escaping @Sendable (PhotoKitSimulation) -> Void) {
            library.state.withLock { $0.hooks.append(ScriptedHook(moment: .beforeNextCommit, action: action)) }
        }

        // MARK: The user's actions

        /// The user creates an album in Photos; returns its local identifier.
        @discardableResult
        public func userCreatesAlbum(titled title: String, assetLocalIdentifiers: [String] = []) -> String {
            defer { library.publishChange() }
            let id = LocalIdentifier.assetCollection()
            library.state.withLock { state in
                state.albums.append(
                    AlbumRecord(
                        localIdentifier: id, title: title, assetIdentifiers: assetLocalIdentifiers,
                        creationIndex: state.albumsEverCreated, creationDate: Date(), isCreatedByApp: false
                    ))
                state.albumsEverCreated += 1
            }
            return id
        }

        /// The user joins an iCloud Shared Album (`.albumCloudShared`, which apps cannot change);
        /// returns its local identifier.
        @discardableResult
        public func userJoinsSharedAlbum(titled title: String) -> String {
            defer { library.publishChange() }
            let id = LocalIdentifier.assetCollection()
            library.state.withLock { state in
                var record = AlbumRecord(
                    localIdentifier: id, title: title, assetIdentifiers: [], creationIndex: state.albumsEverCreated,
                    creationDate: Date(), isCreatedByApp: false)
                record.subtype = .albumCloudShared
                state.albums.append(record)
                state.albumsEverCreated += 1
            }
            return id
        }

        /// The user adds an asset (for example with the camera); returns its local identifier.
        ///
        /// `isSelectedForLimitedAccess` makes it visible to an app with `.limited` access; `pixelWidth`,
        /// `pixelHeight` and `duration` are what Photos would read from the resources.
        @discardableResult
        public func userAddsAsset(
            mediaType: PHAssetMediaType = .image, creationDate: Date = Date(), isHidden: Bool = false,
            isSelectedForLimitedAccess: Bool = false, resources: [SimulatedResource] = [], pixelWidth: Int = 0,
            pixelHeight: Int = 0, duration: TimeInterval = 0
        ) -> String {
            defer { library.publishChange() }
            let id = LocalIdentifier.asset()
            var record = AssetRecord(
                localIdentifier: id, mediaType: mediaType,
                mediaSubtypes: resources.contains { $0.type == .pairedVideo } ? .photoLive : [],
                creationDate: creationDate, modificationDate: creationDate,
                isCreatedByApp: false, isInLimitedSelection: isSelectedForLimitedAccess
            )
            record.isHidden = isHidden
            record.resources = resources
            record.pixelWidth = pixelWidth
            record.pixelHeight = pixelHeight
            record.duration = duration
            library.state.withLock { $0.assets.append(record) }
            return id
        }

        /// The user adds an existing asset to an album; `false` when either is missing.
        @discardableResult
        public func userAddsAsset(withLocalIdentifier assetID: String, toAlbumWithLocalIdentifier albumID: String)
            -> Bool
        {
            defer { library.publishChange() }
            return library.state.withLock { state in
                guard state.assets.contains(where: { $0.localIdentifier == assetID }),
                    let index = state.albums.firstIndex(where: { $0.localIdentifier == albumID })
                else { return false }
                if !state.albums[index].assetIdentifiers.contains(assetID) {
                    state.albums[index].assetIdentifiers.append(assetID)
                    state.albums[index].revision += 1
                }
                return true
            }
        }

        /// The user deletes an album now (its assets stay in the library); `false` when missing.
        @discardableResult
        public func userDeletesAlbum(withLocalIdentifier id: String) -> Bool {
            defer { library.publishChange() }
            return library.state.withLock { state in
                let before = state.albums.count
                state.albums.removeAll { $0.localIdentifier == id }
                return state.albums.count != before
            }
        }

        /// The user renames an album now; `false` when it is missing.
        @discardableResult
        public func userRenamesAlbum(withLocalIdentifier id: String, to title: String) -> Bool {
            defer { library.publishChange() }
            return library.state.withLock { state in
                guard let index = state.albums.firstIndex(where: { $0.localIdentifier == id }) else { return false }
                state.albums[index].title = title
                state.albums[index].revision += 1
                return true
            }
        }

        /// The user marks an asset as a favourite (or not) in Photos now; `false` when it is missing.
        @discardableResult
        public func userMarksAsset(withLocalIdentifier id: String, favorite: Bool) -> Bool {
            defer { library.publishChange() }
            return library.state.withLock { state in
                guard let index = state.assets.firstIndex(where: { $0.localIdentifier == id }) else { return false }
                state.assets[index].isFavorite = favorite
                state.assets[index].modificationDate = Date()
                state.assets[index].revision += 1
                return true
            }
        }

        /// The user edits an asset's picture in Photos now (crops it, applies a filter): nothing an
        /// app lists changes, but change details and the persistent history report the asset as
        /// changed; `false` when it is missing.
        @discardableResult
        public func userEditsAsset(withLocalIdentifier id: String) -> Bool {
            defer { library.publishChange() }
            return library.state.withLock { state in
                guard let index = state.assets.firstIndex(where: { $0.localIdentifier == id }) else { return false }
                state.assets[index].modificationDate = Date()
                state.assets[index].revision += 1
                return true
            }
        }

        // MARK: Persistent change history and change details

        /// Forgets the persistent change history recorded so far, as Photos does after a while:
        /// `fetchPersistentChanges(since:)` with a token made before throws `persistentChangeTokenExpired`.
        public func forgetPersistentChangeHistory() {
            library.state.withLock { state in
                state.history.record(assets: state.assets, albums: state.albums)
                state.history.forget()
            }
        }

        /// Change details describing more removed, inserted and changed objects than this have
        /// `hasIncrementalChanges` `false` (Photos gives up describing large changes; Apple does not
        /// say where). `nil` (default): every change is described.
        public var incrementalChangeLimit: Int? {
            get { library.state.withLock { $0.incrementalChangeLimit } }
            nonmutating set { library.state.withLock { $0.incrementalChangeLimit = newValue } }
        }

        /// The user deletes an asset now (from the library and every album); `false` when missing.
        @discardableResult
        public func userDeletesAsset(withLocalIdentifier id: String) -> Bool {
            defer { library.publishChange() }
            return library.state.withLock { state in
                let before = state.assets.count
                state.assets.removeAll { $0.localIdentifier == id }
                for index in state.albums.indices where state.albums[index].assetIdentifiers.contains(id) {
                    state.albums[index].assetIdentifiers.removeAll { $0 == id }
                    state.albums[index].revision += 1
                }
                return state.assets.count != before
            }
        }

        // MARK: Inspection

        /// The user albums, in creation order.
        public var albums: [SimulatedAlbum] { library.state.withLock { $0.albums.map(\.simulated) } }

        /// The albums titled exactly `title`, in creation order.
        public func albums(titled title: String) -> [SimulatedAlbum] { albums.filter { $0.title == title } }

        /// The album with local identifier `id`, if it exists.
        public func album(withLocalIdentifier id: String) -> SimulatedAlbum? {
            albums.first { $0.localIdentifier == id }
        }

        /// All assets, in creation order.
        public var assets: [SimulatedAsset] { library.state.withLock { $0.assets.map(\.simulated) } }

        /// The asset with local identifier `id`, if it exists.
        public func asset(withLocalIdentifier id: String) -> SimulatedAsset? {
            assets.first { $0.localIdentifier == id }
        }

        /// How many change observers are registered and still alive.
        public var registeredChangeObserverCount: Int {
            library.observers.withLock { $0.filter { $0.observer != nil }.count }
        }

        /// The local identifier of the Recents smart album (`.smartAlbumUserLibrary`).
        public var recentsLocalIdentifier: String { library.state.withLock { $0.recentsIdentifier } }

        // MARK: Queues

        /// Whether the caller runs on this library's change queue (where change blocks run).
        public var isRunningOnChangeQueue: Bool { DispatchQueue.getSpecific(key: library.changeQueueKey) == true }

        /// Whether the caller runs on this library's completion queue (where handlers run).
        public var isRunningOnCompletionQueue: Bool {
            DispatchQueue.getSpecific(key: library.completionQueueKey) == true
        }

        /// Waits until every change block queued so far ran and its completion handler returned.
        public func waitUntilIdle() async {
            let library = self.library
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                library.changeQueue.async {
                    library.completionQueue.async { continuation.resume() }
                }
            }
        }
    }
#endif
