import AlbumKitCore
/// The files of one folder, for choosing a free name and finding an identical photo or video.
///
/// Only media files count as the album's content: identical bytes under another name (`a.jpg.bak`,
/// a sidecar) are not "already there". Same-size files are told apart by their head digest first
/// and their SHA-256 only when heads match, each read once per file version (``FileHashCache``);
/// files are indexed by size and head, so a batch costs one lookup per item however many
/// same-size files the folder holds.
struct FolderContents: Sendable {
    let directory: FileSystem.Descriptor
    private let cache: FileHashCache
    /// Every visible entry name (files, folders, links) and, for media files, the size.
    private var names: Set<String> = []
    private var bySize: [Int64: [String]] = [:]
    /// The media files' identities as listed, for the head index without a second `stat` (the
    /// SHA-256 that confirms a duplicate is always looked up by a fresh `stat`).
    private var identities: [String: FileStatus.Identity] = [:]
    /// For sizes already looked at: head digest → names.
    private var byHead: [Int64: [String: [String]]] = [:]

    /// The folder (device and inode) listed.
    private(set) var folder: [UInt64] = []

    /// Lists `directory`. With `earlier`, a listing of the same folder (an earlier commit of the same
    /// batch), only the names that are new, or that lead to another inode than then, are `stat`ed:
    /// every name is read again, so whatever another program added, removed or renamed meanwhile is
    /// seen, while the folder's own photos cost no `stat` per commit. (A photo edited in place since
    /// keeps its earlier size here; the SHA-256 that confirms a duplicate is looked up by a fresh
    /// `stat`, so at worst such a file is not found as a duplicate.)
    init(directory: FileSystem.Descriptor, cache: FileHashCache, earlier: FolderContents? = nil) throws(SystemError) {
        self.directory = directory
        self.cache = cache
        let status = try FileSystem.fileStatus(of: directory)
        folder = [status.device, status.inode]
        let known = earlier?.folder == folder ? earlier?.identities ?? [:] : [:]
        for entry in try FileSystem.entries(in: directory) {
            let name = entry.name
            names.insert(name)
            guard FolderNaming.isMediaFileName(name), entry.kind == nil || entry.kind == .regular else { continue }
            let identity: FileStatus.Identity
            if entry.kind == .regular, let listed = known[name], listed.inode == entry.inode {
                identity = listed
            } else {
                guard let info = FileSystem.fileStatus(of: name, in: directory), info.kind == .regular else { continue }
                identity = info.identity
            }
            bySize[identity.size, default: []].append(name)
            identities[name] = identity
        }
    }

    /// The name of a media file identical to (`size`, `sha256`), preferring `preferred`; `nil` when
    /// none. `head` gives the item's head digest; it is asked only when a file has that size.
    mutating func identical(size: Int64, sha256: String, preferred: String, head item: () -> String?) -> String? {
        guard let sameSize = bySize[size], !sameSize.isEmpty, let head = item() else { return nil }
        if byHead[size] == nil {
            var index: [String: [String]] = [:]
            for name in sameSize {
                if let digest = cache.head(of: name, in: directory, known: identities[name]) {
                    index[digest, default: []].append(name)
                }
            }
            byHead[size] = index
        }
        let candidates = (byHead[size]?[head] ?? []).sorted { a, b in
            a == preferred || (b != preferred && Array(a.utf8).lexicographicallyPrecedes(Array(b.utf8)))
        }
        for name in candidates where cache.sha256(of: name, in: directory) == sha256 {
            return name
        }
        return nil
    }

    /// Whether a clip published as `name` with companions named `companions` would leave a GoPro
    /// low-resolution copy (`GL010001.LRV`) that two clips of its number could claim (`GH010001.MP4`
    /// beside `GX010001.MP4`): such a copy goes with neither, so its clip would lose it from its
    /// listing. The clip then takes the next name (`GX010001 2.MP4`), as for a name taken.
    func leavesGoProCopyUnclaimed(_ name: String, companions: [String]) -> Bool {
        let stem = Substring(name.lastIndex(of: ".").map { name[..<$0] } ?? name[...])
        guard stem.count >= 8, stem.first == "G" || stem.first == "g" else { return false }
        let rest = stem.dropFirst(2)
        let copy = stem.prefix(1) + (stem.dropFirst().first?.isLowercase == true ? "l" : "L") + rest + ".LRV"
        guard CompanionGrouping.goProClipStems(ofLowResolutionCopy: String(copy))?.contains(String(stem)) == true
        else { return false }
        // Only the names of this number matter: `GH010001…`, `GX010001…`, `GL010001…`.
        let near = names.filter { $0.count > 2 && $0.dropFirst(2).hasPrefix(rest) }
        return !CompanionGrouping(Array(near) + [name] + companions).unclaimedCopies.isEmpty
    }

    /// Whether anything (a file, folder or symlink) had `name` when listed, or got it from this
    /// process since. A name taken by another program meanwhile is found by the publish itself
    /// (`link` fails with `EEXIST`; ``refresh(_:)``).
    func isTaken(_ name: String) -> Bool {
        names.contains(name)
    }

    /// Records a file this commit published.
    mutating func add(_ name: String, size: Int64, sha256: String, head: () -> String?) {
        names.insert(name)
        bySize[size, default: []].append(name)
        // The head digest only where heads are indexed (a size seen among the folder's files).
        let digest = byHead[size] != nil ? head() : nil
        if let digest { byHead[size]![digest, default: []].append(name) }
        if let identity = cache.remember(sha256: sha256, head: digest, forFile: name, in: directory) {
            identities[name] = identity
        }
    }

    /// Re-reads `name` after a publish found it taken (another process wrote it meanwhile).
    mutating func refresh(_ name: String) {
        names.insert(name)
        guard FolderNaming.isMediaFileName(name), let info = FileSystem.fileStatus(of: name, in: directory),
            info.kind == .regular
        else { return }
        if !(bySize[info.size]?.contains(name) ?? false) { bySize[info.size, default: []].append(name) }
        if byHead[info.size] != nil, let digest = cache.head(of: name, in: directory) {
            byHead[info.size]![digest, default: []].append(name)
        }
    }
}
