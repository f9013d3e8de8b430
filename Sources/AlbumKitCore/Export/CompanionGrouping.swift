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
    /// GoPro low-resolution copies (`GL010001.LRV`) that two clips of their number could claim
    /// (`GH010001.MP4` and `GX010001.MP4`), so they go with neither: each with those clips.
    package private(set) var unclaimedCopies: [(copy: String, clips: [String])] = []

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

    /// The stems a GoPro clip of `name` has when `name` is the low-resolution copy a GoPro of HERO6
    /// or later writes beside it: `GL010001.LRV` (chapter 01 of clip 0001) is the copy of
    /// `GH010001.MP4` (H.264) or `GX010001.MP4` (HEVC), never of another chapter or number; a
    /// looping clip's chapter is two letters (`GLAA0001.LRV`). The letters keep their case, and
    /// what follows the number stays (`GL010001 2.LRV`, numbered beside `GX010001 2.MP4` in a
    /// folder library, is that clip's). `nil` for any other name (an older GoPro's `GOPR0001.LRV`
    /// has its clip's stem).
    ///
    /// ```swift
    /// CompanionGrouping.goProClipStems(ofLowResolutionCopy: "GL020001.LRV")  // ["GH020001", "GX020001"]
    /// ```
    package static func goProClipStems(ofLowResolutionCopy name: String) -> [String]? {
        guard lowercasedExtension(of: name) == "lrv" else { return nil }
        let bytes = Array(stem(of: name).utf8)
        func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
        func isChapter(_ byte: UInt8) -> Bool {
            isDigit(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte & 0xDF)
        }
        guard bytes.count >= 8, bytes[0] & 0xDF == UInt8(ascii: "G"), bytes[1] & 0xDF == UInt8(ascii: "L"),
            bytes[2..<4].allSatisfy(isChapter), bytes[4..<8].allSatisfy(isDigit)
        else { return nil }
        let lowercase = bytes[1] != UInt8(ascii: "L")
        let rest = String(decoding: bytes[2...], as: UTF8.self)
        return (lowercase ? ["h", "x"] : ["H", "X"]).map { String(decoding: bytes[0..<1], as: UTF8.self) + $0 + rest }
    }

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
        // `.THM`, `.LRV`: the clip's of their stem; a GoPro's `GL…LRV`, the one clip of its number.
        func clips(_ stem: String) -> [String] {
            (byStem[stem] ?? []).filter { index[$0] != nil && FolderNaming.kind(ofFileNamed: $0) == .video }
        }
        for name in names where Self.isClipCompanion(name) {
            var clip = clips(Self.stem(of: name)).first
            if clip == nil, let stems = Self.goProClipStems(ofLowResolutionCopy: name) {
                let claimants = stems.flatMap(clips)
                if claimants.count > 1 { unclaimedCopies.append((name, claimants)) }
                clip = claimants.count == 1 ? claimants[0] : nil
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
