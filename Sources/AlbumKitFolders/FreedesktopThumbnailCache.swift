import AlbumKitCore
import AlbumKitMedia

#if canImport(COpenSSL)
    import COpenSSL
#endif

/// The desktop's shared thumbnail cache (freedesktop.org's Thumbnail Managing Standard), where a
/// folder library keeps the thumbnails it makes so file managers show the same ones, and reads
/// theirs: `$XDG_CACHE_HOME/thumbnails/{normal,large,x-large,xx-large}/<MD5 of the file's URI>.png`,
/// each PNG carrying `Thumb::URI` and `Thumb::MTime` (the file's modification time, whole seconds),
/// an entry whose URI or time differs being stale. A file that cannot be pictured is recorded as a
/// 1 × 1 PNG under `fail/albumkit/`, and not tried again until it changes.
///
/// ```swift
/// let cache = FreedesktopThumbnailCache(environment: ["HOME": "/home/a"])!
/// cache.root                                           // "/home/a/.cache/thumbnails"
/// FreedesktopThumbnailCache.uri(ofPath: "/home/a/Pictures/my photo.jpg")   // "file:///home/a/Pictures/my%20photo.jpg"
/// ```
struct FreedesktopThumbnailCache {
    /// The cache's folder (`thumbnails` in the user's cache folder).
    let root: String

    /// The cache of the user `environment` describes (`XDG_CACHE_HOME`, else `HOME/.cache`);
    /// `nil` when neither is an absolute path.
    init?(environment: [String: String]) {
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") {
            root = cache + "/thumbnails"
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            root = home + "/.cache/thumbnails"
        } else {
            return nil
        }
    }

    /// The folder of the standard's size kept for `size`: `large` (256) for a thumbnail, `x-large`
    /// (512) for a 2× one; `nil` for a preview (larger than the standard's largest kept here).
    static func folder(for size: PreviewSize) -> String? {
        switch size {
        case .thumbnail: "large"
        case .largeThumbnail: "x-large"
        case .preview: nil
        }
    }

    /// Where failures are recorded, per the standard (`fail/<program>`).
    static let failureFolder = "fail/albumkit"

    /// The `file://` URI of the absolute `path`, escaped as GLib escapes it (GIO-based file managers
    /// compute the same MD5): bytes other than letters, digits and `-._~!$&'()*+,;=:@/` as `%XX`.
    static func uri(ofPath path: String) -> String {
        let kept = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=:@/".utf8)
        var escaped = "file://"
        for byte in path.utf8 {
            if kept.contains(byte) {
                escaped.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                escaped +=
                    "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 15, radix: 16, uppercase: true)
            }
        }
        return escaped
    }

    /// The entry's file name for `uri`: its MD5 in lowercase hex, `.png`; `nil` where MD5 cannot be
    /// computed (libcrypto missing, or not Linux).
    static func entryName(forURI uri: String) -> String? {
        #if canImport(COpenSSL)
            guard let context = albumkit_digest_new(ALBUMKIT_DIGEST_MD5) else { return nil }
            defer { albumkit_digest_free(context) }
            let bytes = Array(uri.utf8)
            albumkit_digest_update(context, bytes, bytes.count)
            var out = [UInt8](repeating: 0, count: 64)
            let count = Int(albumkit_digest_final(context, &out))
            return out.prefix(count).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined() + ".png"
        #else
            return nil
        #endif
    }

    /// The Latin-1 text chunks (`tEXt`) of a PNG, keyword to text; empty for bytes that are not one.
    static func textChunks(of png: [UInt8]) -> [String: String] {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard png.count > 8, Array(png[0..<8]) == signature else { return [:] }
        var text: [String: String] = [:]
        var offset = 8
        while offset + 12 <= png.count {
            let length = png[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: png[offset + 4..<offset + 8], as: UTF8.self)
            guard length <= png.count - offset - 12 else { break }
            let data = png[offset + 8..<offset + 8 + length]
            if type == "tEXt", let zero = data.firstIndex(of: 0) {
                let latin1 = { (bytes: ArraySlice<UInt8>) in String(bytes.map { Character(Unicode.Scalar($0)) }) }
                text[latin1(data[data.startIndex..<zero])] = latin1(data[(zero + 1)...])
            }
            if type == "IEND" { break }
            offset += 12 + length
        }
        return text
    }

    /// A 1 × 1 grey PNG: the picture a failure entry holds (its text chunks say which file failed).
    static let failurePicture: [UInt8] = [
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00,
        0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x02, 0x00, 0x00, 0x00, 0x90, 0x77, 0x53, 0xDE, 0x00, 0x00, 0x00,
        0x0C, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0x68, 0x68, 0x68, 0x00, 0x00, 0x03, 0x04, 0x01, 0x81, 0x4B,
        0xD3, 0xD2, 0x10, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82,
    ]

    /// Makes the cache's folder (and the user's cache folder) when missing, private to the user as
    /// the standard asks.
    func prepare() throws(SystemError) {
        let parent = String(root.dropLast("/thumbnails".count))
        _ = try FileSystem.makeDirectory(atPath: parent, mode: 0o700)
        _ = try FileSystem.makeDirectory(atPath: root, mode: 0o700)
    }
}
