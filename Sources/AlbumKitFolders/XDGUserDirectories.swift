import AlbumKitCore
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The XDG user directories (`~/.config/user-dirs.dirs`), read the way `xdg-user-dir` does, with the
/// GLib/Qt leniencies; used to find the user's (possibly localized) Pictures folder.
///
/// Rules (see `reference/linux-photo-libraries.md` §1.3):
/// 1. The file is `$XDG_CONFIG_HOME/user-dirs.dirs` when `XDG_CONFIG_HOME` is absolute and
///    non-empty, else `$HOME/.config/user-dirs.dirs`.
/// 2. A line `XDG_PICTURES_DIR="$HOME/Bilder"` (leading blanks allowed, blanks around `=`) or
///    `XDG_PICTURES_DIR="/abs/path"`; `"$HOME"` alone is accepted; `\x` stands for `x`; trailing
///    `/` are dropped; other values are ignored; the last valid line wins.
/// 3. No valid line or no file: an absolute `XDG_PICTURES_DIR` in the environment, as
///    `xdg-user-dir` (a shell script sourcing the file) honours it.
/// 4. None of these, or a value equal to `$HOME` (what `xdg-user-dirs-update` writes when
///    the folder was deleted) → `$HOME/Pictures`.
///
/// The environment is injected, so tests never look at the real home:
/// ```swift
/// let dirs = XDGUserDirectories(environment: ["HOME": "/tmp/home"])
/// dirs.picturesDirectory   // /tmp/home/Pictures unless /tmp/home/.config/user-dirs.dirs says otherwise
/// ```
package struct XDGUserDirectories: Sendable {
    /// The environment variables used (`HOME`, `XDG_CONFIG_HOME`, `XDG_PICTURES_DIR`).
    package let environment: [String: String]

    /// Reads the given environment (by default the one the program configured,
    /// ``LibraryConfiguration/environment``).
    package init(environment: [String: String] = LibraryConfiguration.current.environment) {
        self.environment = environment
    }

    /// `$HOME`, else the password database's home directory, without a trailing `/`.
    package var homeDirectory: String {
        if let home = environment["HOME"], !home.isEmpty { return Self.trimmingTrailingSlash(home) }
        if let entry = getpwuid(getuid()), let dir = entry.pointee.pw_dir {
            return Self.trimmingTrailingSlash(String(cString: dir))
        }
        return "/"
    }

    /// `$XDG_CONFIG_HOME` when absolute and non-empty, else `$HOME/.config`.
    package var configDirectory: String {
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
            return Self.trimmingTrailingSlash(config)
        }
        return homeDirectory + "/.config"
    }

    /// The `user-dirs.dirs` file consulted.
    package var userDirsFile: String { configDirectory + "/user-dirs.dirs" }

    /// The directory configured for `name` (`"PICTURES"`, `"VIDEOS"`, …): the file's valid line for
    /// it, else an absolute `XDG_<NAME>_DIR` in the environment (`xdg-user-dir` sources the file over
    /// the environment, so the file wins), else `nil`. Read fresh on every call: the user may edit
    /// the file.
    package func configuredDirectory(_ name: String) -> String? {
        let key = "XDG_\(name)_DIR"
        if let data = FileManager.default.contents(atPath: userDirsFile),
            let configured = Self.parse(String(decoding: data, as: UTF8.self), key: key, home: homeDirectory)
        {
            return configured
        }
        guard let exported = environment[key], exported.hasPrefix("/") else { return nil }
        return Self.trimmingTrailingSlash(exported)
    }

    /// The user's Pictures folder: `XDG_PICTURES_DIR`, or `$HOME/Pictures` when it is not configured
    /// or names the home folder itself, or a folder holding it, in any spelling (`$HOME/./`, a
    /// symlink to it, `/`): album folders never go straight into `$HOME`, where every folder of
    /// the user's would be an album to delete.
    package var picturesDirectory: URL {
        let home = homeDirectory
        let fallback = home == "/" ? "/Pictures" : home + "/Pictures"
        guard let configured = configuredDirectory("PICTURES"), !FileSystem.isPath(home, inside: configured) else {
            return URL(fileURLWithPath: fallback, isDirectory: true)
        }
        return URL(fileURLWithPath: configured, isDirectory: true)
    }

    /// Parses `user-dirs.dirs` content: the value of the last valid `key=` line, resolved against `home`.
    package static func parse(_ contents: String, key: String, home: String) -> String? {
        var result: String?
        for rawLine in contents.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r" }) {
            if let value = parseLine(Substring(rawLine), key: key, home: home) { result = value }
        }
        return result
    }

    private static func parseLine(_ line: Substring, key: String, home: String) -> String? {
        var rest = line.drop { $0 == " " || $0 == "\t" }
        guard rest.hasPrefix(key) else { return nil }
        rest = rest.dropFirst(key.count).drop { $0 == " " || $0 == "\t" }
        guard rest.first == "=" else { return nil }
        rest = rest.dropFirst().drop { $0 == " " || $0 == "\t" }
        guard rest.first == "\"" else { return nil }
        rest = rest.dropFirst()

        var prefix: String
        if rest.hasPrefix("$HOME/") {
            prefix = home == "/" ? "" : home
            rest = rest.dropFirst("$HOME".count)  // keep the "/"
        } else if rest.hasPrefix("$HOME\"") {
            prefix = home
            rest = rest.dropFirst("$HOME".count)
        } else if rest.hasPrefix("/") {
            prefix = ""
        } else {
            return nil  // neither "$HOME/…" nor "/…": not a valid value
        }

        var value = ""
        var escaped = false
        var closed = false
        for character in rest {
            if escaped {
                value.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "\"" {
                closed = true
                break
            } else {
                value.append(character)
            }
        }
        guard closed else { return nil }
        prefix += value
        return prefix.isEmpty ? "/" : trimmingTrailingSlash(prefix)
    }

    private static func trimmingTrailingSlash(_ path: String) -> String {
        var path = path
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        return path
    }
}
