import AlbumKit
import Foundation

/// The environment variables `album` honours, read here and nowhere else: the libraries take
/// them as a ``LibraryConfiguration`` (listed in Docs/development.md, "Configuration").
///
/// ```swift
/// LibraryConfiguration.use(ProgramEnvironment.configuration)   // first thing in main
/// ```
enum ProgramEnvironment {
    /// The shared library's limits and staging folder, passed on as they are (the libraries take the
    /// user's conventional variables, `HOME`, `XDG_*`, `AWS_*`, themselves).
    static let passedOn = [
        "ALBUMKIT_S3_CA_BUNDLE", "ALBUMKIT_LOCK_TIMEOUT_MS", "ALBUMKIT_PG_RETRY_SECONDS",
        "ALBUMKIT_S3_RETRY_SECONDS", "ALBUMKIT_SHARED_STAGING_DIR",
    ]

    /// The configuration the environment asks for: `ALBUMKIT_STAGING=partial` (hidden `.partial`
    /// files in place of `O_TMPFILE`), `ALBUMKIT_BENEATH=levels` (the removal gate opens folders
    /// level by level), `ALBUMKIT_SHA256=libcrypto`, `ALBUMKIT_BOOT_SESSION` (a simulated restart),
    /// `ALBUMKIT_SNAPSHOT_INTERVAL` (journal records between index snapshots), and ``passedOn``.
    static var configuration: LibraryConfiguration {
        var configuration = LibraryConfiguration()
        if variable("ALBUMKIT_STAGING") == "partial" { configuration.staging = .hiddenFiles }
        if variable("ALBUMKIT_BENEATH") == "levels" { configuration.folderWalk = .levelByLevel }
        if variable("ALBUMKIT_SHA256") == "libcrypto" { configuration.hashing = .libcrypto }
        configuration.bootSession = variable("ALBUMKIT_BOOT_SESSION").flatMap { $0.isEmpty ? nil : $0 }
        configuration.snapshotInterval = variable("ALBUMKIT_SNAPSHOT_INTERVAL").flatMap { Int($0) }
        for name in passedOn {
            if let value = variable(name) { configuration.environment[name] = value }
        }
        return configuration
    }

    /// `$COLUMNS` when it is a number: the user's choice of width over the terminal's.
    static let columns: Int? = variable("COLUMNS").flatMap { Int($0) }

    /// One variable (`ProcessInfo.environment` copies all of them into a dictionary at every call:
    /// 0.15 ms of every command).
    static func variable(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
