#if !canImport(ObjectiveC)
    import Dispatch
    import Foundation

    extension PHPhotoLibrary {
        /// Runs a change block and commits it. Call on the change queue only.
        ///
        /// Order: hooks before the block, the block (requests record into a transaction),
        /// hooks before the commit, the commit delay, authorization (prompting if the app never
        /// asked), a scripted failure, resource validation, then the atomic commit.
        func execute(_ block: ChangeBlock) -> PHPhotosError? {
            dispatchPrecondition(condition: .onQueue(changeQueue))
            let number = state.withLock { state in
                state.changeBlockCount += 1
                return state.changeBlockCount
            }
            runHooks(at: [.beforeChangeBlock(number)])

            let transaction = ChangeTransaction(library: self, number: number)
            withSimulationBound {
                ChangeTransaction.$current.withValue(transaction) { block.body() }
            }
            let contents = transaction.close()

            runHooks(at: [.beforeCommit(number), .beforeNextCommit])
            let delay = state.withLock { $0.commitDelay }
            if delay > .zero {
                let (seconds, attoseconds) = delay.components
                Thread.sleep(forTimeInterval: Double(seconds) + Double(attoseconds) / 1e18)
            }

            let error = commit(contents, number: number)
            state.withLock { state in
                if error == nil { state.committedChangeBlockCount += 1 } else { state.failedChangeBlockCount += 1 }
            }
            return error
        }

        private func commit(_ contents: ChangeContents, number: Int) -> PHPhotosError? {
            if let error = state.withLock({ $0.authorize(contents) }) { return error }
            if let code = state.withLock({ $0.takeScriptedFailure(forChangeBlock: number) }) {
                return PHPhotosError(code)
            }

            var resources: [String: [LoadedResource]] = [:]
            for asset in contents.createdAssets {
                guard PHAssetCreationRequest.supports(asset.resources.map(\.type)) else {
                    let code: PHPhotosError.Code = asset.resources.isEmpty ? .missingResource : .invalidResource
                    return PHPhotosError(code, userInfo: [PHLocalIdentifiersErrorKey: [asset.localIdentifier]])
                }
                var loaded: [LoadedResource] = []
                for resource in asset.resources {
                    guard let resource = LoadedResource(resource) else {
                        return PHPhotosError(
                            .invalidResource, userInfo: [PHLocalIdentifiersErrorKey: [asset.localIdentifier]])
                    }
                    loaded.append(resource)
                }
                resources[asset.localIdentifier] = loaded
            }

            let error = state.withLock { state -> PHPhotosError? in
                var draft = state
                if let error = draft.apply(contents, resources: resources, at: Date()) { return error }
                state = draft
                return nil
            }
            guard error == nil else { return error }
            for case let resource in resources.values.joined() where resource.shouldMoveFile {
                // As PhotoKit: the asset is saved; a moved file that cannot be removed stays.
                if let url = resource.sourceFileURL { try? FileManager.default.removeItem(at: url) }
            }
            publishChange()
            return nil
        }

        /// Runs the scripted hooks due at `moments`, outside the lock, with the simulation bound.
        func runHooks(at moments: [ScriptedHook.Moment]) {
            let due = state.withLock { $0.takeHooks(moments) }
            guard !due.isEmpty else { return }
            let simulation = PhotoKitSimulation(library: self)
            withSimulationBound {
                for hook in due { hook.action(simulation) }
            }
        }

        /// The current title of album `id` as a change request in `transaction` sees it, or
        /// `nil` when the album does not exist.
        func currentTitle(ofAlbum id: String, in transaction: ChangeTransaction) -> String? {
            let pending = transaction.read { contents in
                contents.editedAlbums.first { $0.localIdentifier == id }?.title
            }
            if let pending { return pending }
            return state.withLock { state in state.albums.first { $0.localIdentifier == id }?.title }
        }
    }
#endif
