/// Which files of one folder belong together as one photo, by name, as cameras and photo programs
/// write them: the raw of a RAW+JPEG pair (`IMG_1.CR2` beside `IMG_1.JPG`) goes with the JPEG (or
/// HEIC), the photo shown; a sidecar goes with the photo it is named after, `IMG_1.CR2.xmp`
/// (darktable, digiKam) with that file, `IMG_1.xmp` or `IMG_1.AAE` (Lightroom, exiftool, Apple)
/// with the stem's raw when there is one (the pair holding it), else with the stem's photo; a
/// clip's thumbnail and low-resolution copy (`MVI_0001.THM` from a Canon, `GOPR0001.LRV` from a
/// GoPro) go with the video of their stem, as sidecars (without that video they are what their
/// bytes say, a photo and a video). `album import` saves each group as one asset; a folder library
/// lists it as one.
///
/// ```swift
/// let grouping = CompanionGrouping(["IMG_1.CR2", "IMG_1.JPG", "IMG_1.xmp", "notes.xmp"])
/// grouping.groups   // [IMG_1.JPG: [raw IMG_1.CR2, sidecar IMG_1.xmp]]
/// grouping.orphans  // ["notes.xmp"]: a sidecar without its photo
/// ```
package struct CompanionGrouping: Sendable {
    /// A photo or video and the files that go with it.
    package struct Group: Sendable, Equatable {
        package var primary: String
        package var companions: [(role: MediaCompanion.Role, name: String)]

        package static func == (a: Group, b: Group) -> Bool {
            a.primary == b.primary && a.companions.map(\.name) == b.companions.map(\.name)
                && a.companions.map(\.role) == b.companions.map(\.role)
        }
    }

    /// Every media file of the names, in their order, each with its companions; raws paired with
    /// a JPEG are companions, not groups of their own.
    package private(set) var groups: [Group] = []
    /// Sidecars whose photo is not among the names.
    package private(set) var orphans: [String] = []

    /// Sidecar extensions, lowercase.
    package static let sidecarExtensions: Set<String> = ["xmp", "aae"]
    /// The extensions of a clip's companions, lowercase: a camera's thumbnail of the clip (`.THM`,
    /// a small JPEG) and a GoPro's low-resolution copy for previews (`.LRV`, an MP4).
    package static let clipCompanionExtensions: Set<String> = ["thm", "lrv"]
    /// Camera raw extensions, lowercase (those AlbumKit reads, and others it keeps as they are).
    package static let rawExtensions: Set<String> = FolderNaming.aliases(of: .raw).union([
        "dng", "nrw", "rwl", "3fr", "x3f", "iiq", "erf", "mrw", "srf", "sr2", "kdc", "dcr", "mef", "mos",
    ])
    /// The formats a RAW+JPEG pair shows: JPEG, HEIC, HEIF.
    package static let previewExtensions: Set<String> = FolderNaming.aliases(of: .jpeg)
        .union(FolderNaming.aliases(of: .heic)).union(FolderNaming.aliases(of: .heif))

    /// Whether `name` is a sidecar's (`.xmp`, `.AAE`, any case).
    package static func isSidecar(_ name: String) -> Bool { sidecarExtensions.contains(lowercasedExtension(of: name)) }

    /// Whether `name` is a clip companion's (`.THM`, `.LRV`, any case): a companion when a video of
    /// its stem is beside it.
    package static func isClipCompanion(_ name: String) -> Bool {
        clipCompanionExtensions.contains(lowercasedExtension(of: name))
    }

    /// Whether `name` is a clip's thumbnail (`.THM`, any case): a JPEG, the clip's poster.
    package static func isClipThumbnail(_ name: String) -> Bool { lowercasedExtension(of: name) == "thm" }

    /// Whether `name` is a camera raw's.
    package static func isRaw(_ name: String) -> Bool { rawExtensions.contains(lowercasedExtension(of: name)) }

    private static func lowercasedExtension(of name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return name[name.index(after: dot)...].lowercased()
    }

    private static func stem(of name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }

    /// Groups the names of one folder's files; with `pairingRaws: false` every raw stays a photo
    /// of its own (sidecars still go with their photo).
    package init(_ names: [String], pairingRaws: Bool = true) {
        let media = names.filter { !Self.isSidecar($0) && (FolderNaming.isMediaFileName($0) || Self.isRaw($0)) }
        var byStem: [String: [String]] = [:]
        for name in media { byStem[Self.stem(of: name), default: []].append(name) }
        // The raw → the preview it goes with.
        var pairedTo: [String: String] = [:]
        if pairingRaws {
            for (_, files) in byStem {
                guard
                    let preview = files.first(where: {
                        Self.previewExtensions.contains(Self.lowercasedExtension(of: $0))
                    })
                else { continue }
                for raw in files where Self.isRaw(raw) { pairedTo[raw] = preview }
            }
        }
        var index: [String: Int] = [:]
        for name in media where pairedTo[name] == nil {
            index[name] = groups.count
            groups.append(Group(primary: name, companions: []))
        }
        for name in media {
            if let preview = pairedTo[name], let at = index[preview] { groups[at].companions.append((.raw, name)) }
        }
        // `.THM`, `.LRV`: the clip's of their stem.
        for name in names where Self.isClipCompanion(name) {
            let clip = byStem[Self.stem(of: name)]?.first {
                index[$0] != nil && FolderNaming.kind(ofFileNamed: $0) == .video
            }
            if let clip, let at = index[clip] { groups[at].companions.append((.sidecar, name)) }
        }
        let present = Set(media)
        for name in names where Self.isSidecar(name) {
            let described = Self.stem(of: name)
            let owner: String?
            if present.contains(described) {
                owner = pairedTo[described] ?? described  // `IMG_1.CR2.xmp`: that file (or its pair's JPEG)
            } else if let files = byStem[described] {
                // `IMG_1.xmp`: the raw's (Lightroom and Bridge write one for raws only, and keep a
                // JPEG's edits inside it): the pair holding the raw, else the raw kept as a photo of its
                // own; without a raw, the stem's first photo.
                owner =
                    files.first { index[$0] != nil && groups[index[$0]!].companions.contains { $0.role == .raw } }
                    ?? files.first { index[$0] != nil && Self.isRaw($0) }
                    ?? files.first { index[$0] != nil && FolderNaming.kind(ofFileNamed: $0) == .photo }
                    ?? files.first { index[$0] != nil }
            } else {
                owner = nil
            }
            if let owner, let at = index[owner] {
                groups[at].companions.append((.sidecar, name))
            } else {
                orphans.append(name)
            }
        }
    }
}
