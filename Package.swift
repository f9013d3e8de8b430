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
        .target(name: "AlbumKitMedia", path: "Sources/AlbumKitMedia", swiftSettings: directTypeLookups),

        // libFuzzer target over the media parsers (Scripts/media/fuzz.sh builds it with -sanitize=fuzzer,address).
        .executableTarget(
            name: "AlbumKitMediaFuzz", dependencies: ["AlbumKitMedia"], path: "Sources/AlbumKitMediaFuzz"),

        // Public API, saver, the backend protocol, staging, the folder backend and the platform layer.
        .target(
            name: "AlbumKitCore",
            dependencies: [
                "AlbumKitMedia",
                .target(name: "COpenSSL", condition: .when(platforms: [.linux, .android, .windows])),
                .target(name: "CShims", condition: .when(platforms: [.linux, .android])),
            ],
            path: "Sources/AlbumKitCore",
            swiftSettings: [.define("ENABLE_MOCKING", .when(configuration: .debug))] + directTypeLookups
        ),

        // The catalog library: the journal (the library's truth) and its SQLite index. The only
        // module that links SQLite and the page-checksum VFS.
        .target(
            name: "AlbumKitCatalog",
            dependencies: ["AlbumKitCore", "CChecksumVFS", "CSQLite"],
            path: "Sources/AlbumKitCatalog", swiftSettings: directTypeLookups
        ),

        // A library shared by many machines: catalog in PostgreSQL, originals in an S3-compatible store.
        // Linux only; on Apple platforms the target is empty.
        .target(
            name: "AlbumKitShared",
            dependencies: [
                "AlbumKitCore", "AlbumKitCatalog",
                .target(name: "CLibPQ", condition: .when(platforms: [.linux])),
                .target(name: "CCurl", condition: .when(platforms: [.linux])),
                .target(name: "COpenSSL", condition: .when(platforms: [.linux])),
            ],
            path: "Sources/AlbumKitShared", swiftSettings: directTypeLookups
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
                "AlbumKitCore", "AlbumKitCatalog",
                .target(name: "AlbumKitShared", condition: .when(platforms: [.linux])),
                .target(name: "AlbumKitPhotoKit", condition: .when(platforms: applePlatforms)),
            ],
            path: "Sources/AlbumKit", swiftSettings: directTypeLookups
        ),

        // The CLI links the Swift runtime and Foundation statically in release builds on Linux: loading
        // and relocating ~20 shared libraries (Foundation, ICU) was most of `album --help`'s start-up
        // (Docs/performance.md). GCC's C++ runtime and unwinder are linked statically too (libstdc++.a
        // through the linker script in Sources/album/Linking, libgcc_eh): two shared libraries fewer,
        // 0.6–0.7 ms of every start. It is linked at a fixed address (not PIE): as PIE, the loader
        // applied ~77 000 relative relocations at every start, copying each of the ~210 pages they
        // touch (1.4–1.6 ms of kernel time per start on a virtual machine). libc and libm, and the
        // libraries loaded at run time (SQLite, OpenSSL, libpq, libcurl), keep randomized
        // addresses, and every symbol is bound at start (`-z now`), so the table of pointers into
        // them is read-only before any input is read (0.1 ms of every start). `ALBUMKIT_PIE=1
        // swift build -c release` links a PIE binary for packagers who require one. The functions
        // a start runs are laid out next to each other (`startupOrder`, below). Debug builds and the
        // test bundles stay dynamic.
        .executableTarget(
            name: "album", dependencies: ["AlbumKit"], path: "Sources/album", exclude: ["Linking"],
            swiftSettings: [
                .unsafeFlags(
                    [
                        "-static-stdlib", "-Xfrontend", "-function-sections",
                        "-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors",
                    ],
                    .when(platforms: [.linux], configuration: .release))
            ],
            linkerSettings: [
                .unsafeFlags(
                    [
                        "-static-stdlib", "-L", Context.packageDirectory + "/Sources/album/Linking",
                        "-Xclang-linker", "-static-libgcc",
                    ] + fixedAddress + startupOrder, .when(platforms: [.linux], configuration: .release))
            ]
        ),
        .executableTarget(
            name: "album-bench",
            dependencies: ["AlbumKitCore", "AlbumKitCatalog", "AlbumKitMedia", "CShims"],
            path: "Sources/album-bench"
        ),

        .testTarget(
            name: "AlbumKitMediaTests",
            dependencies: ["AlbumKitMedia"],
            path: "Tests/AlbumKitMediaTests",
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "AlbumKitTests",
            dependencies: ["AlbumKitCore", "AlbumKitCatalog", "AlbumKit", "CLoading"],
            path: "Tests/AlbumKitTests",
            // A library written by the previous release, opened from its source folder.
            exclude: ["PreviousRelease"]
        ),
        .testTarget(
            name: "AlbumKitSharedTests",
            dependencies: [
                "AlbumKitCore", "AlbumKitCatalog", "AlbumKit",
                .target(name: "AlbumKitShared", condition: .when(platforms: [.linux])),
                .target(name: "album", condition: .when(platforms: [.linux])),
            ],
            path: "Tests/AlbumKitSharedTests"
        ),
        .testTarget(
            name: "AlbumCLITests",
            dependencies: ["album", "AlbumKitCore", "AlbumKitCatalog", "readme-snippet-runner"],
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
            dependencies: ["PhotoKitSimulator"],
            path: "Tests/PhotoKitSimulatorTests"
        ),
        .testTarget(
            name: "AlbumKitPhotoKitTests",
            dependencies: [
                "AlbumKitPhotoKit", "AlbumKitCore", "AlbumKitCatalog",
                .target(name: "PhotoKitSimulator", condition: .when(platforms: [.linux, .android, .windows])),
            ],
            path: "Tests/AlbumKitPhotoKitTests"
        ),
    ],
    swiftLanguageModes: [.v6]
)

/// Linker flags that make the release `album` a fixed-address executable with its symbols bound at
/// start (full RELRO), unless `ALBUMKIT_PIE=1`.
var fixedAddress: [String] {
    Context.environment["ALBUMKIT_PIE"] == "1"
        ? [] : ["-Xclang-linker", "-no-pie", "-Xlinker", "-z", "-Xlinker", "now"]
}

/// Linker flags that place the functions `album` runs when it starts next to each other, in the
/// order they first run (Sources/album/Linking/startup-order.txt, written by
/// Scripts/startup-order.sh). Scattered over 16 MB of code they cost ~70 page faults per start;
/// grouped, a few (0.2–0.25 ms of every command on a virtual machine, Docs/performance.md). The
/// CLI's own module is compiled with a section per function (`-function-sections`) so its
/// functions can be placed too. A speed hint only: a name the list lacks or no longer matches
/// changes where code lies, never what it does. Needs gold, the Linux toolchain's linker.
var startupOrder: [String] {
    ["-Xlinker", "--section-ordering-file=" + Context.packageDirectory + "/Sources/album/Linking/startup-order.txt"]
}

/// The library modules' generic types are looked up by direct calls, not by mangled name, in the
/// release `album` (the CLI module always is, above). By name, the runtime checks each generic
/// requirement (`AlbumError: Error`, …) by scanning all ~5 400 conformance records of the binary
/// on first use: 6 of the 9 scans a one-photo `album save` made (~1.4 ms, Docs/performance.md).
/// Applied only when this package is built itself: SwiftPM refuses a dependency whose library
/// targets carry unsafe flags, and a dependency's checkout lies under `checkouts/` (or a
/// registry's `downloads/`), where these flags are left out. A speed setting only.
var directTypeLookups: [SwiftSetting] {
    let directory = Context.packageDirectory
    guard !directory.contains("/checkouts/"), !directory.contains("/registry/downloads/") else { return [] }
    return [
        .unsafeFlags(
            ["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"],
            .when(platforms: [.linux], configuration: .release))
    ]
}
