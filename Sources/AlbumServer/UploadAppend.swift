import AlbumKitCore
import Foundation

/// One request's piece of an upload, written to the upload's file as it arrives (never held whole
/// in memory), then flushed; the last piece saves the upload into its album. The upload's bytes
/// stay locked until the answer is made.
///
/// ```swift
/// return .receive(try UploadAppend(handler: self, id: id, offset: 8_388_608, complete: true))
/// ```
final class UploadAppend: HTTPBodyReceiver {
    // Safe without a lock: `HTTPServer` runs each connection on a thread of its own (libmicrohttpd's
    // thread per connection) and reaches a request's receiver only from that connection's callbacks,
    // one after another: `receive`, then `finish` or `abandon` (HTTPBodyReceiver's rule). The
    // receiver is made on that thread and never handed to another, so `state` is never touched by
    // two threads.
    private nonisolated(unsafe) var state: State
    private let handler: LibraryWebHandler
    private let id: String
    private let complete: Bool
    private let location: String?

    private struct State {
        var file: FileSystem.Descriptor?
        /// A creation's mark (``UploadStore/Created``), locked until the request ends.
        var mark: FileSystem.Descriptor?
        var description: UploadStore.Description
        var offset: UInt64
        var refusal: HTTPResponse?
        var head: [UInt8] = []
    }

    /// A piece of the upload `id` from `offset` (`PATCH`).
    convenience init(handler: LibraryWebHandler, id: String, offset: UInt64, complete: Bool) throws {
        let (file, description) = try handler.uploads.openForAppending(id, at: offset)
        // The first bytes of the file, for judging whether it is a photo or video (those already
        // received, when this piece is not the first; judged once 512 are there).
        let head = offset > 0 && offset < 512 ? try FileSystem.readAll(file, from: 0, size: offset) : []
        self.init(
            handler: handler, id: id, complete: complete, location: nil,
            state: State(file: file, description: description, offset: offset, head: head))
    }

    /// The first piece of the upload `created` just made (`POST`), whose answer gives its address.
    convenience init(handler: LibraryWebHandler, created: UploadStore.Created, complete: Bool) {
        self.init(
            handler: handler, id: created.id, complete: complete, location: "/api/uploads/\(created.id)",
            state: State(file: created.file, mark: created.mark, description: created.description, offset: 0))
    }

    private init(handler: LibraryWebHandler, id: String, complete: Bool, location: String?, state: State) {
        self.handler = handler
        self.id = id
        self.complete = complete
        self.location = location
        self.state = state
    }

    func receive(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let file = state.file else { return false }
        let limit = state.description.length ?? handler.uploads.limits.largestFile
        if state.offset + UInt64(bytes.count) > limit {
            state.refusal = LibraryWebHandler.problem(
                413,
                "\(state.description.name) is larger than \(state.description.length == nil ? "the largest file this server takes" : "the length announced") (\(UploadStore.size(limit)))."
            )
            return false
        }
        // The first bytes tell a photo or video from anything else: anything else is refused now
        // (a sidecar is judged by its name, and by the save of its photo).
        if state.offset < 512, state.description.isSidecar != true {
            state.head += bytes.prefix(4096 - Int(state.offset))
            if state.head.count >= 512, !UploadStore.looksLikeMedia(state.head) {
                state.refusal = LibraryWebHandler.json(
                    [
                        "name": state.description.name, "result": "not a photo or video",
                        "error": "\(state.description.name) is not a photo or video.",
                    ], status: 415)
                return false
            }
        }
        do { try FileSystem.write(file, bytes) } catch {
            state.refusal = LibraryWebHandler.problem(507, "The upload cannot be written: \(error).")
            return false
        }
        state.offset += UInt64(bytes.count)
        return true
    }

    func finish() -> HTTPResponse {
        let flushed = flush()
        defer { release() }
        // A refused creation gives no address: nobody can go on with it, so it goes now.
        if let refusal = state.refusal {
            if refusal.status == 415 || location != nil { handler.uploads.remove(id) }
            return refusal.adding("Upload-Offset", "\(state.offset)")
        }
        guard flushed else {
            if location != nil { handler.uploads.remove(id) }
            return LibraryWebHandler.problem(507, "The upload cannot be flushed to disk.")
        }
        if complete {
            if state.offset < 512, state.description.isSidecar != true, !UploadStore.looksLikeMedia(state.head) {
                handler.uploads.remove(id)
                return LibraryWebHandler.json(
                    [
                        "name": state.description.name, "result": "not a photo or video",
                        "error": "\(state.description.name) is not a photo or video.",
                    ], status: 415)
            }
            return answering(handler.finishUpload(id)).adding("Location", location ?? "/api/uploads/\(id)")
        }
        var headers =
            LibraryWebHandler.uploadHeaders + [("Upload-Offset", "\(state.offset)"), ("Upload-Complete", "?0")]
        if let location { headers.append(("Location", location)) }
        return answering(HTTPResponse(status: location == nil ? 204 : 201, headers: headers))
    }

    /// `response`, the upload no longer marked as unanswered first when this request made it (the
    /// answer gives its address; a saved upload is gone already); a 507 when the mark stays.
    private func answering(_ response: HTTPResponse) -> HTTPResponse {
        guard location != nil else { return response }
        do { try handler.uploads.answered(id) } catch {
            return LibraryWebHandler.problem(507, "The upload cannot be recorded as started: \(error).")
        }
        return response
    }

    /// A piece cut short keeps what arrived, for the upload to go on from there. A creation cut
    /// before its answer is forgotten at once, with the sidecars it named: its address was never
    /// told, so nobody can go on with it (the page sends such a file again from its start).
    func abandon() {
        _ = flush()
        defer { release() }
        guard location != nil else { return }
        for companion in state.description.companions ?? [] { handler.uploads.remove(companion) }
        handler.uploads.remove(id)
    }

    /// Flushes what arrived (an acknowledged offset survives a crash).
    private func flush() -> Bool {
        guard let file = state.file else { return true }
        do { try FileSystem.fsync(file) } catch { return false }
        return true
    }

    /// Lets go of the upload's bytes and of a creation's mark, and of their locks.
    private func release() {
        if let file = state.file { FileSystem.close(file) }
        if let mark = state.mark { FileSystem.close(mark) }
        state.file = nil
        state.mark = nil
    }
}
