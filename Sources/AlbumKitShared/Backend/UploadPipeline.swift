#if os(Linux)
    import AlbumKitCore
    import Foundation

    /// Steps 2 and 3 of the save protocol started as soon as each file is staged, so that uploads
    /// run while the saver stages the next files and commits the previous batch: upload workers
    /// never wait for a batch to end.
    ///
    /// Staged files wait for an intent; the one recorder records every file waiting at once, in
    /// one statement, then hands them to ``SharedBackend/uploadConnections`` upload threads.
    /// ``SharedBackend/commit(_:to:)`` waits for each file's ``UploadTicket`` before its
    /// transaction B. Every object the library stores goes this way: a save's photos as they are
    /// staged (again, when a commit runs again), their companions, a copy's batches
    /// (``SharedBackend/upload(_:_:)``). Threads exist only while there is work.
    ///
    /// ```swift
    /// let ticket = pipeline.submit(sha256: staged.sha256, file: descriptor, size: size)
    /// let (intent, outcome) = ticket.wait()   // the intent recorded, then the object stored
    /// ```
    final class UploadPipeline: Sendable {
        private struct Item {
            let ticket: UploadTicket
            let sha256: String
            let file: FileSystem.Descriptor
            let size: UInt64
            var isPresent = false
        }

        private struct State {
            var waitingForIntent: [Item] = []
            var isRecording = false
            var waitingForUpload: [Item] = []
            var uploaders = 0
        }

        private let state = Locked(State())
        private let record: @Sendable ([(sha256: String, intent: String)]) throws -> Set<String>
        private let upload:
            @Sendable (_ sha256: String, _ file: FileSystem.Descriptor, _ size: UInt64, _ present: Bool)
                throws -> Bool
        private let workers: Int

        /// `record` records intents and returns the SHA-256s the library already holds (step 2);
        /// `upload` stores one original and says whether it was put back (step 3).
        init(
            workers: Int,
            record: @escaping @Sendable ([(sha256: String, intent: String)]) throws -> Set<String>,
            upload: @escaping @Sendable (String, FileSystem.Descriptor, UInt64, Bool) throws -> Bool
        ) {
            self.workers = workers
            self.record = record
            self.upload = upload
        }

        /// Starts the intent and the upload of one staged file; the file must stay open until the
        /// ticket is done.
        func submit(sha256: String, file: FileSystem.Descriptor, size: UInt64) -> UploadTicket {
            let ticket = UploadTicket()
            let startRecorder = state.withLock { state -> Bool in
                state.waitingForIntent.append(Item(ticket: ticket, sha256: sha256, file: file, size: size))
                guard !state.isRecording else { return false }
                state.isRecording = true
                return true
            }
            if startRecorder { Blocking.detach { self.recordIntents() } }
            return ticket
        }

        /// Records the intents of every file waiting, again and again until none waits.
        private func recordIntents() {
            while true {
                let items = state.withLock { state -> [Item] in
                    defer { state.waitingForIntent = [] }
                    if state.waitingForIntent.isEmpty { state.isRecording = false }
                    return state.waitingForIntent
                }
                guard !items.isEmpty else { return }
                let intents = items.map { _ in UUID().uuidString.lowercased() }
                let present: Set<String>
                do {
                    present = try record(zip(items, intents).map { ($0.sha256, $1) })
                } catch {
                    for item in items { item.ticket.finish(intent: nil, .failure(error)) }
                    continue
                }
                for (item, intent) in zip(items, intents) { item.ticket.recorded(intent) }
                let starting = state.withLock { state -> Int in
                    state.waitingForUpload += items.map { item in
                        var item = item
                        item.isPresent = present.contains(item.sha256)
                        return item
                    }
                    let more = min(workers - state.uploaders, state.waitingForUpload.count)
                    state.uploaders += more
                    return max(0, more)
                }
                for _ in 0..<starting { Blocking.detach { self.uploadWhileWaiting() } }
            }
        }

        private func uploadWhileWaiting() {
            while true {
                let next = state.withLock { state -> Item? in
                    guard !state.waitingForUpload.isEmpty else {
                        state.uploaders -= 1
                        return nil
                    }
                    return state.waitingForUpload.removeFirst()
                }
                guard let item = next else { return }
                item.ticket.finish(
                    intent: item.ticket.intent,
                    Result { try upload(item.sha256, item.file, item.size, item.isPresent) })
            }
        }
    }

    /// One staged file's way through the ``UploadPipeline``: its intent once recorded, then
    /// whether its object is stored (and was put back), or why not.
    final class UploadTicket: Sendable {
        private let done = DispatchGroup()
        private let state = Locked<(intent: String?, outcome: Result<Bool, any Error>?)>((nil, nil))
        private let isClaimed = Locked(false)

        init() { done.enter() }

        /// `true` the first time only: a commit that runs again (another album, a lost connection)
        /// does not rely on intents an earlier attempt may have forgotten.
        func claim() -> Bool {
            isClaimed.withLock { claimed in
                defer { claimed = true }
                return !claimed
            }
        }

        /// The intent recorded for the file, if it was.
        var intent: String? { state.withLock { $0.intent } }

        func recorded(_ intent: String) { state.withLock { $0.intent = intent } }

        func finish(intent: String?, _ outcome: Result<Bool, any Error>) {
            state.withLock { $0 = (intent, outcome) }
            done.leave()
        }

        /// Waits until the file is uploaded or failed; its intent (if recorded) and the outcome:
        /// `true` when the object was put back (missing or damaged in the store).
        func wait() -> (intent: String?, outcome: Result<Bool, any Error>) {
            done.wait()
            return state.withLock { ($0.intent, $0.outcome!) }
        }
    }
#endif
