#if canImport(Testing)
    import Foundation
    import Testing

    extension ExternalTool {
        /// The PyPI package that has each Python module a test imports.
        public static let pythonPackages: [String: String] = [
            "PIL": "pillow", "pillow_heif": "pillow-heif", "imagehash": "imagehash",
        ]

        /// Runs `script` with the `python3` on the caller's `PATH` (where pip installed the modules),
        /// `arguments` as `sys.argv[1...]`, and returns its standard output. When a module of
        /// `modules` cannot be imported the test ends here, as for a missing program: skipped outside
        /// CI, failed in CI. A script that fails is a thrown error with its standard error.
        ///
        /// ```swift
        /// let size = try ExternalTool.python("from PIL import Image; import sys; print(Image.open(sys.argv[1]).size)",
        ///                                    modules: ["PIL"], arguments: [path])
        /// ```
        @discardableResult
        public static func python(
            _ script: String, modules: [String], arguments: [String] = [],
            sourceLocation: SourceLocation = #_sourceLocation
        ) throws -> String {
            for module in modules {
                guard (try? runPython("import \(module)", [])) == nil else { continue }  // a failed import is "missing"
                let reason =
                    "Python's \(module) is not installed (pip install \(pythonPackages[module] ?? module))"
                if inCI { throw PythonFailure(message: "\(reason); .ci/run installs it") }
                TestRunReport.shared.skipped("test", because: reason)
                try Test.cancel("skipped: \(reason); CI runs it", sourceLocation: sourceLocation)
            }
            modules.forEach { TestRunReport.shared.used("python3 " + $0) }
            return try runPython(script, arguments)
        }

        /// The first of `preferred`, then of the `python3`s on the `PATH`, that can import `module`
        /// (a virtual environment `.ci/run` made, say); `nil` when none can.
        ///
        /// ```swift
        /// let python = ExternalTool.python(importing: "segno", preferring: [venv + "/bin/python3"])
        /// ```
        public static func python(importing module: String, preferring preferred: [String] = []) -> String? {
            let candidates =
                preferred
                + (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map { $0 + "/python3" }
            return candidates.first { path in
                guard FileManager.default.isExecutableFile(atPath: path) else { return false }
                let probe = Process()
                probe.executableURL = URL(fileURLWithPath: path)
                probe.arguments = ["-c", "import \(module)"]
                probe.standardOutput = FileHandle.nullDevice
                probe.standardError = FileHandle.nullDevice
                guard (try? probe.run()) != nil else { return false }  // not runnable: not this one
                probe.waitUntilExit()
                return probe.terminationStatus == 0
            }
        }

        private static func runPython(_ script: String, _ arguments: [String]) throws -> String {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", "-c", script] + arguments
            let output = Pipe()
            let errors = Pipe()
            process.standardOutput = output
            process.standardError = errors
            try process.run()
            let out = output.fileHandleForReading.readDataToEndOfFile()
            let err = errors.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else {
                throw PythonFailure(message: String(decoding: err, as: UTF8.self))
            }
            return String(decoding: out, as: UTF8.self)
        }

        /// A Python script a test ran failed, or a module was missing in CI.
        public struct PythonFailure: Error, CustomStringConvertible {
            public var message: String
            public var description: String { message }
        }
    }
#endif
