import AlbumKit
import Foundation

extension SaveCommand {
    /// One file to save and whether it was found inside a folder (then a file that is not media is
    /// skipped, not a failure).
    struct Input {
        /// The path's bytes as given.
        let bytes: FileSystemPath
        let fromFolder: Bool
        /// The files saved with it (its sidecars, the raw of a RAW+JPEG pair).
        var companions: [MediaCompanion] = []
        /// For a GoPro's low-resolution copy saved as a video of its own, the clips of its number
        /// that could each be its clip (`GH010001.MP4`, `GX010001.MP4`), for the summary to say why.
        var clipsClaiming: [String] = []

        init(_ bytes: FileSystemPath, fromFolder: Bool) {
            self.bytes = bytes
            self.fromFolder = fromFolder
        }

        /// The path for messages and JSON (names that are not valid UTF-8 show U+FFFD).
        var path: String { bytes.description }

        /// The file's status when it was named (whether it is a folder was asked) or found in a
        /// folder, for the probe and the copy (``Media/namedStatus``).
        var status: FileStatus?

        var media: Media {
            var media = companions.isEmpty ? Media.path(bytes) : Media.path(bytes).with(companions: companions)
            media.namedStatus = status
            return media
        }

        /// Its path below the folder given (`DCIM/100CANON/IMG_1.JPG`), where `--backup` puts its
        /// second copy; a file named alone goes at the top.
        var relative: FileSystemPath?

        /// The components of ``relative`` (the file's name alone when there is none).
        var backupComponents: [String] {
            let path = relative ?? bytes.lastComponent
            return path.bytes.split(separator: UInt8(ascii: "/")).map { String(decoding: $0, as: UTF8.self) }
        }

        /// " (with IMG_1.CR2, IMG_1.xmp)" for a line, or nothing.
        var withCompanions: String {
            companions.isEmpty
                ? "" : " (with " + companions.map { Output.shown($0.fileName) }.joined(separator: ", ") + ")"
        }

        /// For JSON: the path's bytes in base64 when `path` could not show them (not UTF-8).
        var exactBytes: String? {
            String(bytes: bytes.bytes, encoding: .utf8) == nil ? Data(bytes.bytes).base64EncodedString() : nil
        }
    }
}
