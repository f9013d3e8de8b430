import AlbumKitCore
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Verifying a folder library: every photo or video file in its album folders readable and whole.
extension FolderBackend: LibraryVerifying {
    /// Checks that every photo or video file in the album folders (at any depth) and at the root
    /// is complete media, and that no staged leftover or hidden `.partial` file is lying around.
    ///
    /// Files without a photo or video extension (sidecars such as `.xmp`, notes) are not assets
    /// and are not checked; symlinks are not followed.
    package func verify() async throws -> VerificationReport {
        try await verify(progress: nil)
    }

    package func verify(progress: (@Sendable (VerificationProgress) -> Void)?) async throws -> VerificationReport {
        try await Blocking.run {
            try self.reading("verify the library") { root, directory in
                var problems: [String] = []
                var checked = 0
                let staging = "\(FolderLibraryState.directoryName)/\(FolderLibraryState.stagingName)"
                do throws(SystemError) {
                    for leftover in try FolderLibraryState.leftovers(root: root) {
                        problems.append(
                            "leftover \(staging)/\(leftover) from a process that is gone (handled when the library is next opened)"
                        )
                    }
                } catch  where error.isOutOfDescriptors {
                    throw error.libraryError("verify the library")  // not the library's fault
                } catch {
                    problems.append("\(staging) cannot be checked for leftovers of interrupted saves: \(error)")
                }
                var folders: [(label: String, url: URL, descriptor: FileSystem.Descriptor?)] = [
                    ("(root)", self.root, nil)
                ]
                for album in try directory.albums() {
                    do throws(SystemError) {
                        let folder = try FileSystem.openDirectory(album.path, in: root)
                        folders.append((album.name, self.url(of: album.path), folder))
                    } catch  where error.isOutOfDescriptors {
                        throw error.libraryError("verify the library")  // not the folder's fault
                    } catch {
                        problems.append("album folder \(album.name) cannot be opened: \(error)")
                    }
                }
                // Listed first, read after: the progress knows how many files and bytes there are.
                var files: [(label: String, url: URL, name: String, size: Int64)] = []
                for (label, url, descriptor) in folders {
                    defer { descriptor.map(FileSystem.close) }
                    let folder = descriptor ?? root
                    let listed = try FileSystem.unlessOutOfDescriptors { () throws(SystemError) in
                        try FileSystem.names(in: folder)
                    }
                    // The raw of a RAW+JPEG pair is kept as it is, beside its JPEG: not an asset to read.
                    let paired = Set(
                        CompanionGrouping(listed ?? []).groups.flatMap { $0.companions.map(\.name) })
                    for name in (listed ?? []).sorted() where !paired.contains(name) {
                        if name.hasPrefix(".") {
                            if name.hasSuffix(".partial") {
                                problems.append("\(label)/\(name): hidden partial file left by an interrupted save")
                            }
                            continue
                        }
                        guard FolderNaming.isMediaFileName(name),
                            let status = FileSystem.fileStatus(of: name, in: folder), status.kind == .regular
                        else { continue }
                        files.append((label, url, name, status.size))
                    }
                }
                let counter = VerificationCounter(
                    total: files.count, totalBytes: files.reduce(0) { $0 + $1.size }, report: progress)
                for file in files {
                    checked += 1
                    do { _ = try MediaReader(.file(file.url.appendingPathComponent(file.name))) } catch {
                        problems.append("\(file.label)/\(file.name): \(AlbumError.wrap(error).message)")
                    }
                    counter.checked(size: file.size)
                }
                problems += Self.namesNotUTF8(under: self.root)
                return VerificationReport(checkedAssets: checked, problems: problems)
            }
        }
    }

    /// Photos and folders anywhere in the library whose names are not UTF-8: they cannot be titles
    /// or asset names, so the library does not list them (nor a folder holding only such photos);
    /// one sentence each, saying where they are (the user's files, never touched).
    static func namesNotUTF8(under root: URL) -> [String] {
        let found: [FileSystem.Found]
        do {
            found = try FileSystem.walk(FileSystemPath(root.path))
        } catch {
            return ["\(root.path) cannot be searched for names that are not UTF-8: \(error)"]
        }
        var problems: [String] = []
        var reported = Set<[UInt8]>()
        for item in found {
            guard String(bytes: item.relative.bytes, encoding: .utf8) == nil else { continue }
            // The first component that is not UTF-8 is what to rename: report it once.
            var prefix: [UInt8] = []
            for component in item.relative.bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false) {
                prefix += (prefix.isEmpty ? [] : [UInt8(ascii: "/")]) + component
                if String(bytes: component, encoding: .utf8) == nil { break }
            }
            let shown = String(decoding: prefix, as: UTF8.self)
            guard prefix != item.relative.bytes || FolderNaming.isMediaFileName(shown), reported.insert(prefix).inserted
            else { continue }
            let what = prefix == item.relative.bytes ? "it" : "it or what it holds"
            problems.append(
                "\(shown): its name is not valid UTF-8, so the library does not list \(what); rename it (e.g. convmv -f latin1 -t utf8 -r --notest)"
            )
        }
        return problems
    }
}
