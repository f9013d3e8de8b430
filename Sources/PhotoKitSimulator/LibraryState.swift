#if !canImport(ObjectiveC)
    import Foundation

    /// The whole simulated library and its scripting, guarded by `PHPhotoLibrary.state`.
    struct LibraryState: Sendable {
        var assets: [AssetRecord] = []
        var albums: [AlbumRecord] = []
        var albumsEverCreated = 0
        var generatedFilenames = 0
        /// The local identifier of the Recents smart album.
        let recentsIdentifier = LocalIdentifier.assetCollection()

        var authorization = AuthorizationState()
        var changeBlockCount = 0
        var committedChangeBlockCount = 0
        var failedChangeBlockCount = 0

        var hooks: [ScriptedHook] = []
        var nextCommitFailures: [PHPhotosError.Code] = []
        var changeBlockFailures: [Int: PHPhotosError.Code] = [:]
        var commitDelay: Duration = .zero
        var staleReferencePolicy: StaleReferencePolicy = .fail(.identifierNotFound)
        var albumFetchOrder: AlbumFetchOrder = .shuffled
        var limitedAccessAlbums: LimitedAccessAlbums = .refused
        /// The persistent change history (`fetchPersistentChanges(since:)`).
        var history = ChangeHistory()
        /// Change details describing more inserted, removed and changed objects than this are not
        /// incremental (``PhotoKitSimulation/incrementalChangeLimit``); `nil`: always incremental.
        var incrementalChangeLimit: Int?

        /// How the app may read the library.
        enum ReadAccess {
            case full
            case limited
        }

        /// The read access a fetch gets. A fetch while read-write access is undetermined
        /// prompts (Photos prompts on first fetch, asynchronously) and sees nothing itself.
        mutating func readAccessForFetch() -> ReadAccess? {
            if authorization.status(for: .readWrite) == .notDetermined {
                _ = authorization.request(.readWrite)
                return nil
            }
            switch authorization.status(for: .readWrite) {
            case .authorized: return .full
            case .limited: return .limited
            default: return nil
            }
        }

        /// The Recents smart album as seen with `access`.
        func recents(_ access: ReadAccess) -> PHAssetCollection {
            PHAssetCollection(
                localIdentifier: recentsIdentifier, title: "Recents", type: .smartAlbum,
                subtype: .smartAlbumUserLibrary, estimatedAssetCount: NSNotFound
            )
        }

        /// Whether an app with `access` sees `asset`.
        static func isVisible(_ asset: AssetRecord, with access: ReadAccess) -> Bool {
            access == .full || asset.isInLimitedSelection
        }

        /// Takes the hooks due at `moments`, in the order they were scheduled.
        mutating func takeHooks(_ moments: [ScriptedHook.Moment]) -> [ScriptedHook] {
            let due = hooks.filter { moments.contains($0.moment) }
            hooks.removeAll { moments.contains($0.moment) }
            return due
        }

        /// Takes the scripted failure for change block `number`, if any.
        mutating func takeScriptedFailure(forChangeBlock number: Int) -> PHPhotosError.Code? {
            if let code = changeBlockFailures.removeValue(forKey: number) { return code }
            return nextCommitFailures.isEmpty ? nil : nextCommitFailures.removeFirst()
        }

        /// Checks the app's authorization for a change block, prompting first when the app
        /// never asked (as Photos does on the first change). Returns the error, if any.
        ///
        /// Creating assets needs add-only (or read-write, or limited) access. Anything else
        /// (albums, edits, deletions) needs read-write access; limited access may edit or
        /// delete only assets in its selection, and touches albums only when
        /// ``PhotoKitSimulation/limitedAccessAlbums`` is `.allowed`.
        ///
        /// Assumption: Apple documents the access levels, not which change fails under which
        /// level, nor with which error code; these answers are the simulator's model.
        mutating func authorize(_ contents: ChangeContents) -> PHPhotosError? {
            if authorization.isUndetermined {
                _ = authorization.request(contents.needsReadWrite ? .readWrite : .addOnly)
            }
            let readWrite = authorization.status(for: .readWrite)
            if !contents.needsReadWrite {
                if readWrite == .authorized || readWrite == .limited { return nil }
                switch authorization.status(for: .addOnly) {
                case .authorized: return nil
                case .restricted: return PHPhotosError(.accessRestricted)
                default: return PHPhotosError(readWrite == .restricted ? .accessRestricted : .accessUserDenied)
                }
            }
            switch readWrite {
            case .authorized:
                return nil
            case .limited:
                if contents.touchesCollections && limitedAccessAlbums == .refused {
                    return PHPhotosError(.accessUserDenied)
                }
                let touched = Set(contents.editedAssets.map(\.localIdentifier) + contents.deletedAssets)
                let selected = Set(assets.filter(\.isInLimitedSelection).map(\.localIdentifier))
                let created = Set(contents.createdAssets.map(\.localIdentifier))
                return touched.isSubset(of: selected.union(created)) ? nil : PHPhotosError(.accessUserDenied)
            case .restricted:
                return PHPhotosError(.accessRestricted)
            default:
                return PHPhotosError(.accessUserDenied)
            }
        }
    }
#endif
