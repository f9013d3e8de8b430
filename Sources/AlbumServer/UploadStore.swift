import AlbumKit
import AlbumKitCore
import AlbumKitMedia
import Foundation

/// The uploads in progress of `album serve`, as files on disk (so a server restarted, or killed,
/// still knows each upload's offset): one folder per upload, named by the server, holding the
/// bytes received so far and a small description (album, original file name, expected length).
///
/// Every file is made, appended and removed through `FileSystem` and the ``RemovalGate`` of the
/// uploads folder; no name of a folder comes from a request. Nothing of an upload is in the library
/// until it is complete: then it is saved as any file is (album found or created, the same bytes
/// the same asset) and its folder removed.
///
/// An upload is made with a mark (`.creating`) that stays until the request that made it is
/// answered with its address (``answered(_:)``), and that request holds the mark's lock all that
/// time. A mark found with its lock free is an upload whose server died before the answer: nobody
/// learned its address, and the next server's start-up removes it (``removeAbandoned(olderThan:now:)``).
///
/// ```swift
/// let store = try UploadStore(folder: "/home/me/.local/state/albumkit/serve/uploads/3f2c41d0")
/// let upload = try store.create(UploadStore.Description(albumTitle: "Party", name: "IMG_1.JPG", length: 2_000_000))
/// try store.answered(upload.id)   // the bytes of its request arrived; its answer comes next
/// ```
package struct UploadStore: Sendable {
    /// What an upload is for, kept beside its bytes.
    package struct Description: Codable, Sendable, Equatable {
        package var albumTitle: String
        package var name: String
        /// The length announced (`Upload-Length`), or `nil` until the last piece says it is complete.
        package var length: UInt64?
        /// The album saved into by identifier (a guest's upload), else the album titled ``albumTitle``.
        package var albumID: String?
        /// The share link whose guest started it: only that link's guests may go on with it.
        package var linkID: String?
        /// A sidecar (`.xmp`, `.AAE`) kept until its photo's upload completes, then saved with it.
        package var isSidecar: Bool?
        /// The completed sidecar uploads saved with this photo as its companions.
        package var companions: [String]?

        package init(
            albumTitle: String, name: String, length: UInt64?, albumID: String? = nil, linkID: String? = nil,
            isSidecar: Bool = false, companions: [String] = []
        ) {
            self.albumTitle = albumTitle
            self.name = name
            self.length = length
            self.albumID = albumID
            self.linkID = linkID
            self.isSidecar = isSidecar ? true : nil
            self.companions = companions.isEmpty ? nil : companions
        }
    }

    /// Limits on uploads, with the messages the browser shows.
    package struct Limits: Sendable {
        package var largestFile: UInt64 = 64 << 30
        package var uploadsInProgress = 1000
        /// The most a share link's guests hold at once: one link's guests cannot take every place.
        /// A page sends three files at once, each after its sidecars (at most 8).
        package var uploadsInProgressPerLink = 200
        package init() {}
    }

    package let folder: String
    package let limits: Limits
    private static let descriptionName = "upload.json"
    /// The mark of an upload whose creation is not answered yet (a name ``fileName(_:)`` never gives).
    private static let creatingName = ".creating"
    /// Before an upload's folder is named by its id: `.new-ID`.
    private static let hiddenPrefix = ".new-"

    package init(folder: String, limits: Limits = Limits()) throws {
        self.folder = folder
        self.limits = limits
        do { _ = try FileSystem.makeDirectory(atPath: folder, mode: 0o700) } catch {
            throw AlbumError(
                .libraryUnwritable, "The uploads folder \(folder) cannot be made: \(error).", file: folder,
                underlying: error)
        }
    }

    /// Whether `id` has the shape of an upload's identifier (a request names uploads only by it).
    /// Whether `name` is an upload's folder before it has its id (`.new-ID`).
    static func isHidden(_ name: String) -> Bool {
        name.hasPrefix(hiddenPrefix) && isWellFormed(name.dropFirst(hiddenPrefix.count))
    }

    package static func isWellFormed(_ id: Substring) -> Bool {
        id.utf8.count == 36 && id.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) || $0 == 45 }
    }

    /// The file name an upload's bytes are kept under: the original name when it is a plain single
    /// name (it becomes the asset's original file name), else `upload`. Control characters and the
    /// marks that turn text right to left (`IMG_1\u{202E}gpj.exe` shows as `IMG_1exe.jpg`) make a
    /// name not plain.
    static func fileName(_ given: String) -> String {
        let last = given.split(separator: "/").last.map(String.init) ?? ""
        let plain =
            !last.isEmpty && !last.hasPrefix(".") && last.utf8.count <= 200 && last != Self.descriptionName
            && last.unicodeScalars.allSatisfy {
                $0.value >= 0x20 && $0 != "\\" && !(0x7F...0x9F).contains($0.value) && !isDirectional($0)
            }
        return plain ? last : "upload"
    }

    /// Whether `scalar` is one of Unicode's explicit direction marks, embeddings, overrides or isolates.
    static func isDirectional(_ scalar: Unicode.Scalar) -> Bool {
        [0x061C, 0x200E, 0x200F].contains(scalar.value) || (0x202A...0x202E).contains(scalar.value)
            || (0x2066...0x2069).contains(scalar.value)
    }

    /// An upload just made: its identifier, its bytes open to append at 0 and locked (as
    /// ``openForAppending(_:at:)`` gives them), and its mark of a creation not answered yet, locked
    /// until the request that made it ends.
    package struct Created {
        package var id: String
        package var file: FileSystem.Descriptor
        package var mark: FileSystem.Descriptor
        package var description: Description
    }

    /// Starts an upload, marked as not answered until ``answered(_:)``.
    ///
    /// - Throws: `.invalidArgument` when the announced length is over the limit or too many uploads
    ///   are in progress; `.libraryUnwritable` when its folder cannot be made.
    package func create(_ description: Description) throws -> Created {
        if let length = description.length, length > limits.largestFile {
            throw AlbumError(
                .invalidArgument,
                "\(description.name) is \(Self.size(length)), over the largest file this server takes (\(Self.size(limits.largestFile)))."
            )
        }
        let existing = (try? FileSystem.names(inDirectoryAt: folder)) ?? []  // an unreadable folder fails below
        if existing.count >= limits.uploadsInProgress {
            throw AlbumError(
                .invalidArgument,
                "\(limits.uploadsInProgress) uploads are already in progress; finish or cancel some first.")
        }
        if let link = description.linkID,
            existing.lazy.filter({ state(of: $0)?.description.linkID == link }).count
                >= limits.uploadsInProgressPerLink
        {
            throw AlbumError(
                .invalidArgument,
                "This share link already has \(limits.uploadsInProgressPerLink) uploads in progress; finish or cancel some first."
            )
        }
        let id = RandomID.make()
        var stored = description
        stored.name = Self.fileName(description.name)
        // Made under a hidden name (`.new-ID`) and given its own once marked, locked and described:
        // an upload folder is never seen half made, so a start-up tells a creation that died from one
        // going on by its mark's lock alone.
        let hidden = Self.hiddenPrefix + id
        do {
            let root = try FileSystem.openDirectory(folder)
            try FileSystem.makeDirectory(hidden, in: root, mode: 0o700)
            let own = try FileSystem.openDirectory(hidden, in: root)
            // The mark first, locked: a server killed from here on leaves a mark nobody holds. Found
            // gone once locked, another server's start-up took it meanwhile: this creation fails.
            try FileSystem.createFile(Self.creatingName, in: own, bytes: [])
            let mark = try FileSystem.openFile(Self.creatingName, in: own)
            try FileSystem.lock(mark, wait: false)
            guard try FileSystem.fileStatus(of: mark).linkCount > 0 else {
                throw SystemError("flock", path: mark.path, errno: ENOENT)
            }
            let json = try JSONEncoder().encode(stored)
            try FileSystem.createFile(Self.descriptionName, in: own, bytes: Array(json))
            try FileSystem.createFile(stored.name, in: own, bytes: [])
            try FileSystem.renameWithoutReplacing(hidden, in: root, to: id, in: root)
            let file = try FileSystem.openForReadingAndAppending(dataPath(id, stored))
            try FileSystem.lock(file, wait: false)
            return Created(id: id, file: file, mark: mark, description: stored)
        } catch {
            remove(hidden)
            remove(id)
            throw AlbumError(
                .libraryUnwritable, "The upload of \(description.name) cannot be started in \(folder): \(error).",
                file: folder, underlying: error)
        }
    }

    /// Removes the mark of an upload just made, its creation being answered now with its address
    /// (flushed: the answer survives a crash); nothing when the upload is gone (saved, refused).
    ///
    /// - Throws: the error of removing the mark or flushing its folder.
    package func answered(_ id: String) throws {
        guard Self.isWellFormed(Substring(id)) else { return }
        let own: FileSystem.Descriptor
        do { own = try RemovalGate(root: folder).openFolder(id) } catch  where error.errno == ENOENT { return }
        if try RemovalGate.removeFile(named: Self.creatingName, in: own) { try FileSystem.fsync(own) }
    }

    /// An upload's description and the bytes received so far; `nil` when there is no such upload.
    package func state(of id: String) -> (description: Description, offset: UInt64)? {
        guard Self.isWellFormed(Substring(id)),
            let own = try? FileSystem.openDirectory(folder + "/" + id),  // missing: no such upload
            let bytes = try? FileSystem.readSmallFile(Self.descriptionName, in: own),  // unreadable: none
            let description = try? JSONDecoder().decode(Description.self, from: Data(bytes)),
            Self.fileName(description.name) == description.name,  // a name in the folder, never a path
            let status = FileSystem.status(of: description.name, in: own), (status.st_mode & S_IFMT) == S_IFREG
        else { return nil }
        return (description, UInt64(status.st_size))
    }

    /// The path of an upload's bytes (for the save, once complete).
    package func dataPath(_ id: String, _ description: Description) -> String {
        folder + "/" + id + "/" + description.name
    }

    /// Opens an upload's bytes to append at `offset`, locked against a second writer.
    ///
    /// - Throws: ``Conflict`` with the real offset when `offset` is not where the bytes end, or another
    ///   request is appending.
    package func openForAppending(_ id: String, at offset: UInt64) throws -> (FileSystem.Descriptor, Description) {
        guard let (description, size) = state(of: id) else {
            throw AlbumError(.fileNotFound, "There is no upload \(id) (finished, cancelled, or never started).")
        }
        let file = try FileSystem.openForReadingAndAppending(dataPath(id, description))
        do { try FileSystem.lock(file, wait: false) } catch {
            guard error.errno == EWOULDBLOCK else { throw error }
            throw Conflict(offset: size, reason: "another request is appending to this upload")
        }
        let now = UInt64(try FileSystem.size(of: file))
        guard now == offset else {
            throw Conflict(offset: now, reason: "the upload holds \(now) bytes, not \(offset)")
        }
        return (file, description)
    }

    /// An append that does not start where the upload's bytes end (409, with the real offset).
    package struct Conflict: Error {
        package var offset: UInt64
        package var reason: String
    }

    /// Removes an upload's folder and everything in it, through the uploads folder's removal gate;
    /// whether the folder went.
    @discardableResult
    package func remove(_ id: String) -> Bool {
        guard Self.isWellFormed(Substring(id)) || Self.isHidden(id) else { return false }
        let gate = RemovalGate(root: folder)
        guard let own = try? gate.openFolder(id) else { return false }  // already gone
        for name in (try? FileSystem.names(in: own)) ?? [] {
            // An upload's folder holds only the files made above; anything else stays, and so does the folder.
            _ = try? RemovalGate.removeFile(named: name, in: own)
        }
        guard let root = try? FileSystem.openDirectory(folder) else { return false }  // the folder itself went away
        return FileSystem.removeEmptyDirectory(id, in: root)
    }

    /// Removes the uploads nothing was appended to for `age` seconds (default a week): a phone that
    /// never came back; at once those whose creation was never answered, their server killed before
    /// it said their address (marked, the mark's lock free: no request holds it); and folders a
    /// server killed while it made or removed them left (over a minute old). Returns how many went.
    ///
    /// Another server sharing the folder may be making an upload meanwhile: a creation makes its
    /// folder under a hidden name, marks it, locks the mark and describes it before it names the
    /// folder by its id, so an upload folder whose mark this start-up can lock was never answered,
    /// and a mark unlinked since it was opened was answered meanwhile. A hidden folder is the
    /// creation's until it is over a minute old (its mark may not be locked yet).
    @discardableResult
    package func removeAbandoned(olderThan age: Int = 7 * 86_400, now: Int = Int(time(nil))) -> Int {
        // An unreadable uploads folder has nothing this server can resume either: nothing to remove.
        let names = (try? FileSystem.names(inDirectoryAt: folder)) ?? []
        let gate = RemovalGate(root: folder)
        var removed = 0
        for id in names where Self.isWellFormed(Substring(id)) || Self.isHidden(id) {
            guard let own = try? gate.openFolder(id) else { continue }  // gone meanwhile, or not a folder
            let settled = (try? FileSystem.fileStatus(of: own)).map { now - $0.modified.seconds > 60 } ?? false
            if Self.isHidden(id) {
                if settled, remove(id) { removed += 1 }
                continue
            }
            if let mark = try? FileSystem.openFile(Self.creatingName, in: own) {  // a regular file, or none
                // Held while the folder goes: a creation starting now fails on it. Not taken: a mark
                // still locked (its request lives), or unlinked since it was opened (answered).
                let abandoned = withExtendedLifetime(mark) { () -> Bool in
                    // A lock or a status that cannot be had: not proven abandoned, so kept.
                    guard (try? FileSystem.lock(mark, wait: false)) != nil,
                        ((try? FileSystem.fileStatus(of: mark).linkCount) ?? 0) > 0
                    else { return false }
                    return remove(id)
                }
                if abandoned { removed += 1 }
                continue
            }
            guard let (description, _) = state(of: id) else {
                // A server killed while it removed the upload (or a folder not made here).
                if settled, remove(id) { removed += 1 }
                continue
            }
            guard let status = FileSystem.status(of: description.name, in: own),
                now - Int(status.modificationTime.tv_sec) > age
            else { continue }
            if remove(id) { removed += 1 }
        }
        return removed
    }

    /// Whether the first bytes of an upload are those of a photo or video AlbumKit reads: `false`
    /// only when they are certainly not (a cut-short file is not judged here; the save judges it).
    package static func looksLikeMedia(_ head: [UInt8]) -> Bool {
        do {
            _ = try MediaInspector().inspect(BufferByteSource(bytes: head))
            return true
        } catch {
            return error.kind != .notMedia
        }
    }

    static func size(_ bytes: UInt64) -> String {
        ByteCountFormatter.string(fromByteCount: Int64(clamping: bytes), countStyle: .file)
    }
}
