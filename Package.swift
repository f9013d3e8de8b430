// swift-tools-version:6.0
import PackageDescription

let applePlatforms: [Platform] = [.macOS, .iOS, .tvOS, .visionOS, .macCatalyst]

let package = Package(
    name: "AlbumKit",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .visionOS(.v1)],
    products: [
        .library(name: "AlbumKit", targets: ["AlbumKit"]),
        .executable(name: "album", targets: ["album"]),
        .executable(name: "album-bench", targets: ["album-bench"]),
    ],
    targets: [
        // Loading a C library at run time (dlopen), for the four below.
        .target(name: "CLoading", path: "Sources/CLoading"),
        // SQLite for the catalog under AlbumKit's own names: loaded on first use on Linux (`album --help`
        // starts without it; building needs sqlite3.h from libsqlite3-dev), the SDK's SQLite on Apple platforms.
        .target(
            name: "CSQLite", dependencies: ["CLoading"], path: "Sources/CSQLite",
            linkerSettings: [.linkedLibrary("sqlite3", .when(platforms: applePlatforms))]
        ),
        // libcrypto (SHA-256), loaded on first use; CryptoKit on Apple platforms.
        .target(name: "COpenSSL", dependencies: ["CLoading"], path: "Sources/COpenSSL"),
        // libpq for the shared library's catalog, loaded at run time (no development files needed, and
        // `album` starts without loading it).
        .target(name: "CLibPQ", dependencies: ["CLoading"], path: "Sources/CLibPQ"),
        // libcurl for the shared library's object store, loaded at run time (no development files needed).
        .target(name: "CCurl", dependencies: ["CLoading"], path: "Sources/CCurl"),
        // libvips for thumbnails and previews, loaded at run time (no development files needed, and
        // `album` starts without loading it).
        .target(name: "CVips", dependencies: ["CLoading"], path: "Sources/CVips"),
        // FFmpeg's libraries (libavformat, libavcodec, libswscale, libavutil) for a video's poster
        // frame, loaded at run time (no development files needed, and `album` starts without them).
        .target(name: "CFFmpeg", dependencies: ["CLoading"], path: "Sources/CFFmpeg"),
        // LibRaw for the picture of a raw file that stores no usable preview, loaded at run time (no
        // development files needed, and `album` starts without it).
        .target(name: "CLibRaw", dependencies: ["CLoading"], path: "Sources/CLibRaw"),
        // GNU libmicrohttpd for `album serve`, loaded at run time (no development files needed, and
        // `album` starts without loading it).
        .target(name: "CMicroHTTPD", dependencies: ["CLoading"], path: "Sources/CMicroHTTPD"),
        // The near-duplicate search's comparisons of hashes, with the processor's bit-count
        // instruction where it has one (chosen at run time).
        .target(name: "CNearDuplicates", path: "Sources/CNearDuplicates"),
        // _GNU_SOURCE calls Swift cannot see through Glibc (renameat2, O_TMPFILE, syncfs).
        .target(name: "CShims", path: "Sources/CShims"),
        // The catalog's page checksums: a SQLite VFS in C, on every platform (sqlite3.h from
        // libsqlite3-dev on Linux, from the SDK on Apple platforms).
        .target(
            name: "CChecksumVFS",
            dependencies: ["CSQLite"],
            path: "Sources/CChecksumVFS"
        ),

        // Media: format sniffing, structural validation and metadata, no pixel decoding.
        .target(name: "AlbumKitMedia", path: "Sources/AlbumKitMedia"),

        // Pixels: thumbnails, previews and grey pixel grids of photos, decoded by libvips, and videos'
        // poster frames, decoded by FFmpeg (Linux).
        .target(
            name: "AlbumKitPreviews",
            dependencies: [
                "AlbumKitMedia", .target(name: "CVips", condition: .when(platforms: [.linux])),
                .target(name: "CFFmpeg", condition: .when(platforms: [.linux])),
                .target(name: "CLibRaw", condition: .when(platforms: [.linux])),
            ],
            path: "Sources/AlbumKitPreviews"
        ),

        // libFuzzer target over the media parsers (Scripts/media/fuzz.sh builds it with -sanitize=fuzzer,address).
        .executableTarget(
            name: "AlbumKitMediaFuzz", dependencies: ["AlbumKitMedia"], path: "Sources/AlbumKitMediaFuzz"),

        // Public API, saver, the backend protocol, staging and the platform layer (every system call).
        .target(
            name: "AlbumKitCore",
            dependencies: [
                "AlbumKitMedia", "AlbumKitPreviews", "CNearDuplicates",
                .target(name: "COpenSSL", condition: .when(platforms: [.linux, .android, .windows])),
                .target(name: "CShims", condition: .when(platforms: [.linux, .android])),
            ],
            path: "Sources/AlbumKitCore",
            swiftSettings: [.define("ENABLE_MOCKING", .when(configuration: .debug))]
        ),

        // The folder library: albums as folders of the user's Pictures folder (or any folder).
        .target(
            name: "AlbumKitFolders",
            dependencies: [
                "AlbumKitCore", "AlbumKitPreviews",
                .target(name: "CShims", condition: .when(platforms: [.linux, .android])),
                // MD5 of a file's URI: its name in the desktop's thumbnail cache.
                .target(name: "COpenSSL", condition: .when(platforms: [.linux])),
            ],
            path: "Sources/AlbumKitFolders"
        ),

        // The catalog library: the journal (the library's truth) and its SQLite index. The only
        // module that links SQLite and the page-checksum VFS.
        .target(
            name: "AlbumKitCatalog",
            dependencies: ["AlbumKitCore", "AlbumKitPreviews", "CChecksumVFS", "CSQLite"],
            path: "Sources/AlbumKitCatalog"
        ),

        // A library shared by many machines: catalog in PostgreSQL, originals in an S3-compatible store.
        // Linux only; on Apple platforms the target is empty.
        .target(
            name: "AlbumKitShared",
            dependencies: [
                "AlbumKitCore", "AlbumKitPreviews",
                .target(name: "CLibPQ", condition: .when(platforms: [.linux])),
                .target(name: "CCurl", condition: .when(platforms: [.linux])),
                .target(name: "COpenSSL", condition: .when(platforms: [.linux])),
            ],
            path: "Sources/AlbumKitShared"
        ),

        // PhotoKit simulator: test support only, never linked into the Linux library or CLI.
        .target(name: "PhotoKitSimulator", path: "Sources/PhotoKitSimulator"),

        // The PhotoKit backend: Photos on Apple platforms, the simulator elsewhere.
        .target(
            name: "AlbumKitPhotoKit",
            dependencies: [
                "AlbumKitCore",
                .target(name: "PhotoKitSimulator", condition: .when(platforms: [.linux, .android, .windows])),
            ],
            path: "Sources/AlbumKitPhotoKit"
        ),

        // The facade users import.
        .target(
            name: "AlbumKit",
            dependencies: [
                "AlbumKitCore", "AlbumKitCatalog", "AlbumKitFolders",
                .target(name: "AlbumKitShared", condition: .when(platforms: [.linux])),
                .target(name: "AlbumKitPhotoKit", condition: .when(platforms: applePlatforms)),
            ],
            path: "Sources/AlbumKit"
        ),

        // `album serve`: an HTTP server (libmicrohttpd) with the album pages and the upload API over any
        // library kind, through the public API and the libraries' capabilities. Linux only.
        .target(
            name: "AlbumServer",
            dependencies: [
                "AlbumKit", "AlbumKitCore", "AlbumKitMedia",
                .target(name: "CMicroHTTPD", condition: .when(platforms: [.linux])),
            ],
            path: "Sources/AlbumServer"
        ),

        // The CLI links the Swift runtime and Foundation statically in release builds on Linux:
        // loading and relocating ~20 shared libraries (Foundation, ICU) was most of `album --help`'s
        // start-up (Docs/performance.md). GCC's C++ runtime and unwinder are linked statically too
        // (libstdc++.a through the linker script in Sources/album/Linking, libgcc_eh). The binary is
        // hardened as Debian builds every binary: position-independent (ASLR for all of its code,
        // which parses untrusted media), full RELRO and every symbol bound at start (`-z relro -z
        // now`), with its relative relocations packed (`-z pack-relative-relocs`, glibc 2.36+) so
        // the loader applies them in a few pages (lld, the toolchain's own linker: gold has no packed
        // relocations). Debug builds and the test bundles stay dynamic.
        .executableTarget(
            name: "album",
            dependencies: ["AlbumKit", .target(name: "AlbumServer", condition: .when(platforms: [.linux]))],
            path: "Sources/album", exclude: ["Linking"],
            swiftSettings: [
                .unsafeFlags(["-static-stdlib"], .when(platforms: [.linux], configuration: .release))
            ],
            linkerSettings: [
                .unsafeFlags(
                    [
                        "-static-stdlib", "-L", Context.packageDirectory + "/Sources/album/Linking",
                        "-Xclang-linker", "-static-libgcc", "-use-ld=lld", "-Xclang-linker", "-pie",
                        "-Xlinker", "-z", "-Xlinker", "relro", "-Xlinker", "-z", "-Xlinker", "now",
                        "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
                    ], .when(platforms: [.linux], configuration: .release))
            ]
        ),
        .executableTarget(
            name: "album-bench",
            dependencies: [
                "AlbumKitCore", "AlbumKitCatalog", "AlbumKitFolders", "AlbumKitMedia", "AlbumKitPreviews", "CShims",
                "AlbumTestSupport",
            ],
            path: "Sources/album-bench"
        ),

        // What every test target shares: the rule for tests that need a program from outside the
        // package (`ExternalTool`: skipped with the reason outside CI, failed in CI) and the run's
        // closing summary line (`TestRunReport`).
        .target(name: "AlbumTestSupport", path: "Tests/AlbumTestSupport"),

        .testTarget(
            name: "AlbumKitPreviewsTests",
            dependencies: [
                "AlbumKitPreviews", "AlbumKitMedia", "AlbumTestSupport",
                .target(name: "CLibRaw", condition: .when(platforms: [.linux])),
            ],
            path: "Tests/AlbumKitPreviewsTests"
        ),
        .testTarget(
            name: "AlbumKitMediaTests",
            dependencies: ["AlbumKitMedia", "AlbumTestSupport"],
            path: "Tests/AlbumKitMediaTests",
            resources: [.copy("Fixtures")]
        ),
        // The behaviours every library kind must show, as functions over a kind's factory (`LibraryKind`),
        // and the fixtures every library test uses (temporary folders, example and made-up media).
        // Each kind's test target runs the kit for its kind (`LibraryConformanceSuite`).
        .target(
            name: "AlbumKitConformance", dependencies: ["AlbumKitCore", "AlbumKitMedia", "AlbumTestSupport"],
            path: "Tests/AlbumKitConformance"
        ),
        // The folder library's test helpers (a Pictures folder with its own Trash, folder checks), for
        // the folder tests and the tests where a folder library meets a catalog.
        .target(
            name: "AlbumKitFoldersTestSupport",
            dependencies: ["AlbumKitCore", "AlbumKitFolders", "AlbumKitMedia", "AlbumTestSupport"],
            path: "Tests/AlbumKitFoldersTestSupport"
        ),

        // One test target per module, each running the conformance kit for its kind.
        .testTarget(
            name: "AlbumKitCoreTests",
            dependencies: ["AlbumKitCore", "CLoading", "AlbumTestSupport", "AlbumKitConformance"],
            path: "Tests/AlbumKitCoreTests"
        ),
        .testTarget(
            name: "AlbumKitCatalogTests",
            dependencies: ["AlbumKitCore", "AlbumKitCatalog", "AlbumTestSupport", "AlbumKitConformance"],
            path: "Tests/AlbumKitCatalogTests",
            // A library written by the previous release, opened from its source folder.
            exclude: ["PreviousRelease", "IndexVersion5"]
        ),
        .testTarget(
            name: "AlbumKitFoldersTests",
            dependencies: [
                "AlbumKitCore", "AlbumKitFolders", "AlbumKitMedia", "AlbumTestSupport", "AlbumKitConformance",
                "AlbumKitFoldersTestSupport",
            ],
            path: "Tests/AlbumKitFoldersTests"
        ),
        // What no one module owns: the public API through the `AlbumKit` facade, a catalog and a folder
        // library side by side (exports between them, a folder inside a catalog, copies), the DocC
        // examples, and checks over all of Sources.
        .testTarget(
            name: "AlbumKitTests",
            dependencies: [
                "AlbumKitCore", "AlbumKitCatalog", "AlbumKitFolders", "AlbumKit", "AlbumTestSupport",
                "AlbumKitConformance", "AlbumKitFoldersTestSupport",
            ],
            path: "Tests/AlbumKitTests"
        ),
        .testTarget(
            name: "AlbumKitSharedTests",
            dependencies: [
                "AlbumKitCore", "AlbumKitCatalog", "AlbumKitFolders", "AlbumKit", "AlbumTestSupport",
                "AlbumKitConformance",
                .target(name: "AlbumKitShared", condition: .when(platforms: [.linux])),
                .target(name: "album", condition: .when(platforms: [.linux])),
                .target(name: "CShims", condition: .when(platforms: [.linux])),
            ],
            path: "Tests/AlbumKitSharedTests"
        ),
        .testTarget(
            name: "AlbumCLITests",
            dependencies: [
                "album", "AlbumKitCore", "AlbumKitCatalog", "AlbumKitFolders", "readme-snippet-runner",
                "AlbumTestSupport", "AlbumKitConformance",
                .target(name: "AlbumServer", condition: .when(platforms: [.linux])),
            ],
            path: "Tests/AlbumCLITests"
        ),

        // README's Swift examples, compiled from README's own text (ReadmeTests runs them).
        .executableTarget(name: "SnippetExtractor", path: "Sources/SnippetExtractor"),
        .plugin(
            name: "ReadmeSnippets", capability: .buildTool(), dependencies: ["SnippetExtractor"],
            path: "Plugins/ReadmeSnippets"),
        .executableTarget(
            name: "readme-snippet-runner", dependencies: ["AlbumKit"], path: "Tests/ReadmeSnippetRunner",
            plugins: ["ReadmeSnippets"]),
        .testTarget(
            name: "PhotoKitSimulatorTests",
            dependencies: ["PhotoKitSimulator", "AlbumTestSupport"],
            path: "Tests/PhotoKitSimulatorTests"
        ),
        .testTarget(
            name: "AlbumKitPhotoKitTests",
            dependencies: [
                "AlbumKitPhotoKit", "AlbumKitCore", "AlbumKitCatalog", "AlbumKitFolders", "AlbumTestSupport",
                "AlbumKitConformance",
                .target(name: "PhotoKitSimulator", condition: .when(platforms: [.linux, .android, .windows])),
            ],
            path: "Tests/AlbumKitPhotoKitTests"
        ),
    ],
    swiftLanguageModes: [.v6]
)
