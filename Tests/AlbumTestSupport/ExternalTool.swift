#if canImport(Testing)
    import Foundation
    import Testing

    /// A program from outside the package that a test runs (a decoder that judges AlbumKit's reading
    /// of a file, a shell that loads a completion script, the sqlite3 shell, ImageMagick…): the one
    /// place that decides what a test does when it is missing.
    ///
    /// - Outside CI (`CI` unset) a missing tool skips the test: Swift Testing reports it cancelled,
    ///   with the tool and the Debian package to install, and the run's last line counts it.
    /// - In CI (`CI` set; `.ci/run` installs every tool) a missing tool fails the test.
    ///
    /// ```
    /// let sqlite3 = try ExternalTool.require("sqlite3")   // "/usr/bin/sqlite3", or the test stops here
    /// if ExternalTool.isInstalled("zsh") { … }             // an optional check inside a longer test
    /// ```
    public enum ExternalTool {
        /// The Debian package that has each tool, for the message that names what to install.
        public static let packages: [String: String] = [
            "djpeg": "libjpeg-turbo-progs", "pngcheck": "pngcheck", "tiffinfo": "libtiff-tools",
            "tiffcp": "libtiff-tools", "ffmpeg": "ffmpeg", "ffprobe": "ffmpeg", "exiftool": "libimage-exiftool-perl",
            "dcraw": "dcraw", "raw-identify": "libraw-bin", "giftext": "giflib-tools", "convert": "imagemagick",
            "zsh": "zsh", "fish": "fish", "groff": "groff-base", "sqlite3": "sqlite3", "openssl": "openssl",
            "vips": "libvips-tools", "vipsthumbnail": "libvips-tools",
            "chromium": "chromium", "dcraw_emu": "libraw-bin", "cc": "gcc",
        ]

        /// The folders searched, where Debian's packages put them: the tests depend neither on the
        /// caller's `PATH` nor on a program of the same name elsewhere (a script in /usr/local/bin
        /// that stands in for ImageMagick is not ImageMagick).
        static let folders = ["/usr/bin", "/bin"]

        /// Whether tests run where every tool must be there.
        public static var inCI: Bool { ProcessInfo.processInfo.environment["CI"].map { !$0.isEmpty } ?? false }

        /// The executable path of `tool`, or `nil` when it is not installed.
        public static func path(_ tool: String) -> String? {
            folders.map { $0 + "/" + tool }.first { FileManager.default.isExecutableFile(atPath: $0) }
        }

        /// Why a test cannot use `tool`: it is missing and which package has it.
        static func reason(_ tool: String) -> String {
            "\(tool) is not installed (apt-get install \(packages[tool] ?? tool))"
        }

        /// `tool`'s path. When it is missing the current test ends here: skipped outside CI, failed
        /// in CI. Call it before the test's first expectation that needs the tool.
        @discardableResult
        public static func require(_ tool: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
            if let path = path(tool) {
                TestRunReport.shared.used(tool)
                return path
            }
            // In CI the error fails the test, with the reason.
            if inCI { throw Missing(tool: tool) }
            TestRunReport.shared.skipped("test", because: reason(tool))
            try Test.cancel("skipped: \(reason(tool)); CI runs it", sourceLocation: sourceLocation)
        }

        /// Ends the current test, as ``require(_:sourceLocation:)`` does for a missing program, when
        /// something else it needs is missing: a library loaded at run time, a Python module.
        /// `what` names it and `install` says how to install it.
        ///
        /// ```
        /// try ExternalTool.requireAvailable(found, "libmicrohttpd", install: "apt-get install libmicrohttpd12")
        /// ```
        public static func requireAvailable(
            _ available: Bool, _ what: String, install: String, sourceLocation: SourceLocation = #_sourceLocation
        ) throws {
            if available {
                TestRunReport.shared.used(what)
                return
            }
            let reason = "\(what) is not installed (\(install))"
            if inCI { throw MissingDependency(description: reason + "; .ci/run installs it") }
            TestRunReport.shared.skipped("test", because: reason)
            try Test.cancel("skipped: \(reason); CI runs it", sourceLocation: sourceLocation)
        }

        /// Ends the current test when libvips (Debian's libvips42, which AlbumKit loads at run time to
        /// draw thumbnails and previews) cannot be loaded: skipped outside CI, failed in CI.
        ///
        /// ```
        /// try ExternalTool.requireLibvips()
        /// ```
        public static func requireLibvips(sourceLocation: SourceLocation = #_sourceLocation) throws {
            let handle = dlopen("libvips.so.42", RTLD_LAZY | RTLD_LOCAL)
            if let handle { dlclose(handle) }
            try requireAvailable(
                handle != nil, "libvips", install: "apt-get install libvips42", sourceLocation: sourceLocation)
        }

        /// Ends the current test when FFmpeg's libraries (Debian's libavformat59 and its companions,
        /// which AlbumKit loads at run time to decode a video's poster frame) are missing.
        ///
        /// ```
        /// try ExternalTool.requireFFmpegLibraries()
        /// ```
        public static func requireFFmpegLibraries(sourceLocation: SourceLocation = #_sourceLocation) throws {
            try requireAvailable(
                hasFFmpegLibraries, "FFmpeg's libraries",
                install: "apt-get install libavformat59 libavcodec59 libswscale6 libavutil57",
                sourceLocation: sourceLocation)
        }

        /// Whether FFmpeg's libraries (FFmpeg 5: libavformat 59 and its companions) can be loaded,
        /// for a test whose expectation depends on them (a video's poster frame, or `nil` without).
        public static var hasFFmpegLibraries: Bool {
            ["libavutil.so.57", "libavcodec.so.59", "libavformat.so.59", "libswscale.so.6"].allSatisfy { name in
                let handle = dlopen(name, RTLD_LAZY | RTLD_LOCAL)
                if let handle { dlclose(handle) }
                return handle != nil
            }
        }

        /// Something other than a program that a test needed was missing in CI.
        public struct MissingDependency: Error, CustomStringConvertible {
            public var description: String
        }

        /// Whether `tool` is installed, for a check that a longer test makes only when it is. Missing,
        /// it records a failure in CI and a skipped check elsewhere (printed, and counted at the end).
        public static func isInstalled(_ tool: String, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
            if path(tool) != nil {
                TestRunReport.shared.used(tool)
                return true
            }
            if inCI {
                Issue.record("\(reason(tool)); .ci/run installs it", sourceLocation: sourceLocation)
            } else {
                print("↳ check skipped: \(reason(tool)); CI runs it")
                TestRunReport.shared.skipped("check", because: reason(tool))
            }
            return false
        }

        /// A tool a test needed was missing in CI.
        public struct Missing: Error, CustomStringConvertible {
            public var tool: String
            public var description: String { "\(ExternalTool.reason(tool)); .ci/run installs it" }
        }
    }
#endif
