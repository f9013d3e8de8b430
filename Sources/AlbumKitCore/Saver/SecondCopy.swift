import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A second copy of an imported file in a folder of the user's (`album import --backup DIR`, as
/// Lightroom's "Make a Second Copy To"): written unseen, made durable, read back and compared
/// with the source's SHA-256 before it gets its name, and never in place of another file. A name
/// already taken by a file of other bytes gets a suffix (`IMG_0001-1.JPG`); a file of the same
/// bytes is the copy already made.
///
/// ```swift
/// let outcome = try SecondCopy.make(of: source, into: "/mnt/backup", at: ["DCIM", "100CANON", "IMG_0001.JPG"])
/// ```
package enum SecondCopy {
    package enum Outcome: Sendable, Equatable {
        /// Written, and read back identical, at this path.
        case made(String)
        /// A file of the same bytes was there already, at this path.
        case alreadyThere(String)
    }

    /// How many suffixed names are tried before giving up.
    static let suffixes = 999

    /// Copies `source` to `root/relative` (making the folders on the way).
    ///
    /// - Throws: ``AlbumError`` naming the source and the folder: `notEnoughSpace`, `accessDenied`
    ///   (read-only or not writable), `ioFailure` (the copy read back differs, or another cause),
    ///   `fileUnreadable` for a source that cannot be read or changed while it was copied.
    package static func make(of source: FileSystemPath, into root: String, at relative: [String]) throws(AlbumError)
        -> Outcome
    {
        let shown = source.description
        func failure(_ error: SystemError, _ doing: String) -> AlbumError {
            let cause = String(cString: strerror(error.errno)).lowercased()
            let code: AlbumError.Code =
                switch error.errno {
                case ENOSPC, EDQUOT: .notEnoughSpace
                case EACCES, EPERM, EROFS: .accessDenied
                default: .ioFailure
                }
            return AlbumError(
                code, "No second copy of \(shown) in \(root): \(doing) \(error.path) failed (\(cause)).", file: shown,
                underlying: error)
        }
        guard let name = relative.last, !name.isEmpty else {
            return .alreadyThere(root)
        }
        let (file, version): (FileSystem.Descriptor, FileSystem.FileVersion)
        do throws(SystemError) { (file, version) = try FileSystem.openForCopying(source) } catch {
            throw error.inputError(file: shown)
        }
        // The folders on the way: made when missing, links never followed below the root.
        var folder: FileSystem.Descriptor
        do throws(SystemError) {
            folder = try FileSystem.openDirectory(atPathFollowing: root)
        } catch  where error.errno == ENOENT {
            // Never made here: a backup disk not mounted would leave its mount point, on another disk.
            throw AlbumError(
                .fileNotFound,
                "No second copy of \(shown): the folder \(root) does not exist (is its disk mounted?); it is not created for you.",
                file: shown, underlying: error)
        } catch {
            throw failure(error, "opening")
        }
        do throws(SystemError) {
            for component in relative.dropLast() {
                try FileSystem.makeDirectory(component, in: folder)
                folder = try FileSystem.openDirectory(component, in: folder)
            }
        } catch {
            throw failure(error, "making the folder")
        }
        let staged: FileSystem.StagedFile
        do throws(SystemError) {
            staged = try FileSystem.stage(in: folder, as: StagingName(kind: "backup"))
        } catch {
            throw failure(error, "writing into")
        }
        defer { FileSystem.abandon(staged) }
        let written: HashingCopy.Copied
        do throws(HashingCopy.Failure) {
            written = try HashingCopy.copy(file, to: staged.descriptor, expecting: version)
        } catch {
            switch error {
            case .source(let error): throw error.inputError(file: shown)
            case .destination(let error): throw failure(error, "writing")
            case .changed:
                throw AlbumError(
                    .fileUnreadable, "No second copy of \(shown): it changed while it was being copied.", file: shown)
            }
        }
        // Durable, then read back from the disk's copy and compared, as --move checks the library's.
        let readBack: String
        do {
            try FileSystem.fsync(staged.descriptor)
            readBack = try FileSystem.sha256(of: staged.descriptor)
        } catch let error as SystemError {
            throw failure(error, "writing")
        } catch {
            throw AlbumError(.ioFailure, "No second copy of \(shown) in \(root): \(error).", file: shown)
        }
        guard readBack == written.sha256 else {
            throw AlbumError(
                .ioFailure,
                "No second copy of \(shown) in \(root): the copy read back differs from the file (SHA-256); the disk may be failing.",
                file: shown)
        }
        for attempt in 0...suffixes {
            let candidate = attempt == 0 ? name : suffixed(name, attempt)
            let path = folder.path + "/" + candidate
            // The same bytes already there under this name: the copy an earlier import made.
            if let existing = FileSystem.fileStatus(atPath: path, following: false) {
                if existing.kind == .regular, existing.size == Int64(written.byteCount),
                    // A file there that cannot be read is not known to be the same: the next name.
                    let there = try? FileSystem.openForCopying(FileSystemPath(path)).0,
                    // (As above.)
                    (try? FileSystem.sha256(of: there)) == written.sha256
                {
                    return .alreadyThere(path)
                }
                continue
            }
            do throws(SystemError) {
                try FileSystem.publish(staged, into: folder, as: candidate)
                try FileSystem.fsync(folder)
                return .made(path)
            } catch  where error.errno == EEXIST {
                continue  // Taken meanwhile: the next name.
            } catch {
                throw failure(error, "naming")
            }
        }
        throw AlbumError(
            .ioFailure, "No second copy of \(shown) in \(root): \(name) and \(suffixes) suffixed names are all taken.",
            file: shown)
    }

    /// `IMG_0001-2.JPG` for `IMG_0001.JPG` and 2.
    static func suffixed(_ name: String, _ number: Int) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "\(name)-\(number)" }
        return "\(name[..<dot])-\(number)\(name[dot...])"
    }
}
