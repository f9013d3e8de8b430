import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A copy the library holds of a saved file, read back now: its SHA-256 and which file it is
/// (device and inode). What ``SourceRemoval`` compares a source with before removing it.
///
/// ```swift
/// let copies = try await library.storedCopies(ofAssetWithID: saved.assetID)
/// ```
package struct StoredCopy: Sendable, Hashable {
    package var sha256: String
    package var file: FileSystem.FileID

    package init(sha256: String, file: FileSystem.FileID) {
        self.sha256 = sha256
        self.file = file
    }
}

/// The copies a library holds of one asset (its file and the files kept with it), and the
/// library's folder: everything ``SourceRemoval`` needs to know of the library.
package struct StoredCopies: Sendable {
    package var original: StoredCopy
    package var companions: [StoredCopy]
    /// The library's folder (a catalog's `NAME.albumlibrary`, a folder library's root).
    package var libraryRoot: String

    package init(original: StoredCopy, companions: [StoredCopy], libraryRoot: String) {
        self.original = original
        self.companions = companions
        self.libraryRoot = libraryRoot
    }

    /// Every copy, the original first.
    package var all: [StoredCopy] { [original] + companions }
}

/// The one rule by which a caller's file is removed once saved (`album import --move`,
/// ``Media/movesFile``): never the only copy. The file is removed only when
///
/// 1. it is a regular file, not a symbolic link (opened without following one);
/// 2. it is not one of the library's own copies (device and inode), lies in no folder of the
///    library (`..` by `..` up to the root, by identity) and in no AlbumKit catalog library;
/// 3. its bytes, read now through the descriptor held from here to the removal, have the SHA-256 of
///    a copy the library holds under another inode, read back now;
/// 4. it did not change while it was read (the same size, modification and status-change times
///    before and after), and its name still names that file just before the `unlink`.
///
/// Whatever fails, the file stays, and ``Outcome`` says why. What is left: a write between the
/// last check and the `unlink` (a few microseconds; a writer that still holds the file open
/// writes to a file that no longer has a name).
///
/// ```swift
/// switch SourceRemoval.remove(FileSystemPath(path), copies: copies) { case .removed: … }
/// ```
package enum SourceRemoval {
    package enum Outcome: Sendable, Equatable {
        /// Removed: the library holds its bytes in another file.
        case removed
        /// The file is the library's own copy (the same file): there is nothing to remove.
        case isLibraryFile
        /// Its bytes (read now) are not those of any copy the library holds.
        case differs
        /// Kept for the reason given (a phrase: "it is a symbolic link").
        case kept(String)
    }

    /// Removes the file at `path` when the rule above allows it; `copies` are the library's copies
    /// of what `path` was saved as.
    package static func remove(_ path: FileSystemPath, copies: StoredCopies) -> Outcome {
        remove(path, matching: copies.all, libraryRoot: copies.libraryRoot)
    }

    /// (As above, against any of `copies`.)
    package static func remove(_ path: FileSystemPath, matching copies: [StoredCopy], libraryRoot: String?) -> Outcome {
        let file: FileSystem.Descriptor
        let before: FileSystem.FileVersion
        do throws(SystemError) {
            (file, before) = try FileSystem.openWithoutFollowing(path)
        } catch {
            switch error.errno {
            case ELOOP: return .kept("it is a symbolic link (what it points to is not removed)")
            case ENOENT: return .kept("it is no longer there")
            case EISDIR, EINVAL: return .kept("it is no longer a regular file")
            default: return .kept(String(cString: strerror(error.errno)).lowercased())
            }
        }
        if copies.contains(where: { $0.file == before.id }) { return .isLibraryFile }
        do throws(SystemError) {
            let folders = try FileSystem.folders(above: path)
            if let libraryRoot, let root = FileSystem.fileStatus(atPath: FileSystemPath(libraryRoot)),
                folders.contains(where: { $0.id == FileSystem.FileID(device: root.device, inode: root.inode) })
            {
                return .kept("it is inside the library (\(libraryRoot)); --move removes only files from outside it")
            }
            if folders.contains(where: \.isCatalogLibrary) {
                return .kept("it is inside an AlbumKit catalog library, whose files are never removed from outside")
            }
        } catch {
            return .kept("the folders above it cannot be read (\(String(cString: strerror(error.errno)).lowercased()))")
        }
        let digest: String
        let after: FileSystem.FileVersion
        do {
            digest = try FileSystem.sha256(of: file)
            TestPause.at("source-hashed")
            after = try FileSystem.version(of: file)
        } catch let error as SystemError {
            return .kept("it cannot be read again to check it (\(String(cString: strerror(error.errno)).lowercased()))")
        } catch {
            return .kept("it cannot be read again to check it (\(error))")
        }
        guard after == before else { return .kept("it changed while it was being checked") }
        guard copies.contains(where: { $0.sha256 == digest && $0.file != before.id }) else { return .differs }
        guard let named = FileSystem.fileStatus(atPath: path, following: false),
            FileSystem.FileID(device: named.device, inode: named.inode) == before.id
        else { return .kept("another file took its name while it was being checked") }
        do throws(SystemError) { try FileSystem.unlink(path) } catch {
            return .kept(String(cString: strerror(error.errno)).lowercased())
        }
        return .removed
    }
}

extension FileSystem.FileVersion {
    /// Which file this is: its device and inode.
    package var id: FileSystem.FileID { FileSystem.FileID(device: device, inode: inode) }
}
