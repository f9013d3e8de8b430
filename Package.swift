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
        // C libraries from the system (Debian -dev packages; the SDK on Apple platforms).
        .systemLibrary(
            name: "CSQLite",
            path: "Sources/CSQLite",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        .systemLibrary(
            name: "COpenSSL",
            path: "Sources/COpenSSL",
            providers: [.apt(["libssl-dev"])]
        ),
        // _GNU_SOURCE calls Swift cannot see through Glibc (renameat2, O_TMPFILE, syncfs).
        .target(name: "CShims", path: "Sources/CShims"),
        // The catalog's page checksums: a SQLite VFS in C, on every platform (sqlite3.h from
        // libsqlite3-dev on Linux, from the SDK on Apple platforms).
        .target(
            name: "CChecksumVFS",
            path: "Sources/CChecksumVFS",
            linkerSettings: [.linkedLibrary("sqlite3")]
        ),

        // Media: format sniffing, structural validation and metadata, no pixel decoding.
        .target(name: "AlbumKitMedia", path: "Sources/AlbumKitMedia"),

        // libFuzzer target over the media parsers (Scripts/media/fuzz.sh builds it with -sanitize=fuzzer,address).
        .executableTarget(
            name: "AlbumKitMediaFuzz", dependencies: ["AlbumKitMedia"], path: "Sources/AlbumKitMediaFuzz"),

        // Public API, saver, catalog and folder backends.
        .target(
            name: "AlbumKitCore",
            dependencies: [
                "AlbumKitMedia",
                "CChecksumVFS",
                .target(name: "CSQLite", condition: .when(platforms: [.linux, .android, .windows])),
                .target(name: "COpenSSL", condition: .when(platforms: [.linux, .android, .windows])),
                .target(name: "CShims", condition: .when(platforms: [.linux, .android])),
            ],
            path: "Sources/AlbumKitCore",
            swiftSettings: [.define("ENABLE_MOCKING", .when(configuration: .debug))]
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
                "AlbumKitCore",
                .target(name: "AlbumKitPhotoKit", condition: .when(platforms: applePlatforms)),
            ],
            path: "Sources/AlbumKit"
        ),

        .executableTarget(name: "album", dependencies: ["AlbumKit"], path: "Sources/album"),
        .executableTarget(
            name: "album-bench",
            dependencies: ["AlbumKitCore", "AlbumKitMedia"],
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
            dependencies: ["AlbumKitCore", "AlbumKit"],
            path: "Tests/AlbumKitTests"
        ),
        .testTarget(
            name: "AlbumCLITests",
            dependencies: ["album", "AlbumKitCore", "readme-snippet-runner"],
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
                "AlbumKitPhotoKit", "AlbumKitCore",
                .target(name: "PhotoKitSimulator", condition: .when(platforms: [.linux, .android, .windows])),
            ],
            path: "Tests/AlbumKitPhotoKitTests"
        ),
    ],
    swiftLanguageModes: [.v6]
)
