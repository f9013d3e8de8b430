import AlbumKitMedia
import Foundation

#if os(Linux) || os(Android)
    internal import COpenSSL
#endif

/// The settings a program gives every library it opens. A library reads no environment variable
/// of its own in release builds: the program reads its settings where it starts (the `album`
/// command from its environment: Docs/development.md, "Configuration") and hands them over once,
/// before it opens a library.
///
/// ```swift
/// var configuration = LibraryConfiguration()
/// configuration.staging = .hiddenFiles       // the file system mishandles O_TMPFILE
/// LibraryConfiguration.use(configuration)    // first thing in main
/// ```
///
/// A program that never calls ``use(_:)`` gets the defaults: the settings of an ordinary machine.
package struct LibraryConfiguration: Sendable {
    /// How files being written are kept invisible until they are published.
    package enum Staging: Sendable {
        /// An unnamed `O_TMPFILE` inode where the file system has them, else a hidden file.
        case unnamedFiles
        /// Always a hidden `.partial` file: for file systems that claim `O_TMPFILE` but mishandle
        /// it, and for tests of the path Apple platforms take.
        case hiddenFiles
    }

    /// How the removal gate opens the folders below a library.
    package enum FolderWalk: Sendable {
        /// In one `openat2(RESOLVE_BENEATH)` call where the kernel has it, level by level elsewhere.
        case beneath
        /// Level by level everywhere (tests of the fallback).
        case levelByLevel
    }

    /// Which SHA-256 code hashes.
    package enum Hashing: Sendable {
        /// The processor's SHA instructions where it has them, else libcrypto.
        case fastest
        /// libcrypto always (tests of that path and its errors on a processor with SHA instructions).
        case libcrypto
    }

    package var staging = Staging.unnamedFiles
    package var folderWalk = FolderWalk.beneath
    package var hashing = Hashing.fastest
    /// The boot this process runs in, in place of the machine's: a test that recreates the disk as
    /// a power loss leaves it also restarts the machine (``BootSession/id``). `nil`: the machine's.
    package var bootSession: String?
    /// A catalog writes a snapshot of its index after this many journal records (`nil`: 10 000).
    package var snapshotInterval: Int?
    /// The variables of the user's environment that the conventions libraries follow read:
    /// `HOME` and `XDG_*` (the Pictures folder, the Trash), `USER`, the object store's credentials
    /// and certificate authorities (`AWS_*`), and, when a program passes them, the shared library's
    /// timeouts and staging folder (`ALBUMKIT_LOCK_TIMEOUT_MS`, `ALBUMKIT_PG_RETRY_SECONDS`,
    /// `ALBUMKIT_S3_RETRY_SECONDS`, `ALBUMKIT_SHARED_STAGING_DIR`, `ALBUMKIT_S3_CA_BUNDLE`). By
    /// default the ``conventionalVariables`` of this process, as every freedesktop or AWS client
    /// reads them; no AlbumKit setting is read unless the program passes it.
    package var environment: [String: String] = LibraryConfiguration.conventionalEnvironment()

    /// The variables of the user's conventions (freedesktop's base and user folders, the login, the
    /// AWS credentials and certificate authorities): the only ones a library takes from its process
    /// unless the program hands over others.
    package static let conventionalVariables = [
        "HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_PICTURES_DIR", "USER", "LOGNAME",
        "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_PROFILE",
        "AWS_SHARED_CREDENTIALS_FILE", "AWS_CONFIG_FILE", "AWS_CA_BUNDLE", "CURL_CA_BUNDLE", "SSL_CERT_FILE",
    ]

    /// This process's ``conventionalVariables`` that are set. The one place a library reads its
    /// environment, and only these names (`LibraryEnvironmentTests`).
    package static func conventionalEnvironment() -> [String: String] {
        // Each name asked for (`ProcessInfo.environment` copies every variable into a dictionary
        // first: ~0.3 ms of every command's start).
        var found: [String: String] = [:]
        for name in conventionalVariables {
            if let value = getenv(name) { found[name] = String(cString: value) }
        }
        return found
    }

    package init() {}

    private static let installed = Locked(LibraryConfiguration())

    /// The configuration every library of this process uses.
    package static var current: LibraryConfiguration { installed.withLock { $0 } }

    /// Makes `configuration` the one every library uses from now on. A program calls it once, at
    /// its start: a library already open keeps some settings it read (the boot, the staging).
    package static func use(_ configuration: LibraryConfiguration) {
        installed.withLock { $0 = configuration }
        #if os(Linux) || os(Android)
            if configuration.hashing == .libcrypto { albumkit_sha256_cpu_refuse() }
        #endif
    }
}
