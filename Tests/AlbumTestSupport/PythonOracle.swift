#if canImport(Testing)
    import Foundation
    import Testing

    /// Python programs that judge AlbumKit's results with PyPI's image libraries (Pillow,
    /// pillow-heif, imagehash): the same rule as ``ExternalTool`` — a missing module skips the test
    /// outside CI and fails it in CI (`.ci/run` installs them with pip).
    ///
    /// ```
    /// try PythonOracle.require(["PIL", "imagehash"])
    /// let output = try PythonOracle.run("print(1 + 1)")   // Data("2\n")
    /// ```
    public enum PythonOracle {
        /// The PyPI package that has each module, for the message that names what to install.
        public static let packages = ["PIL": "pillow", "pillow_heif": "pillow-heif", "imagehash": "imagehash"]

        /// Ends the current test (skipped outside CI, failed in CI) unless `python3` imports every
        /// one of `modules`.
        public static func require(_ modules: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
            let probe = modules.map { "import \($0)" }.joined(separator: "; ")
            // try?: python3 itself missing is the same answer as a module missing.
            if let status = try? runProcess(["-c", probe]).status, status == 0 {
                for module in modules { TestRunReport.shared.used("python3 " + module) }
                return
            }
            let names = modules.map { packages[$0] ?? $0 }.joined(separator: " ")
            let reason = "python3 cannot import \(modules.joined(separator: ", ")) (pip install \(names))"
            if ExternalTool.inCI { throw ExternalTool.Missing(tool: reason) }
            TestRunReport.shared.skipped("test", because: reason)
            try Test.cancel("skipped: \(reason); CI runs it", sourceLocation: sourceLocation)
        }

        /// Runs `source` with `python3`, `arguments` as `sys.argv[1...]`; its standard output, or an
        /// error with its standard error when it fails.
        public static func run(_ source: String, arguments: [String] = []) throws -> Data {
            let result = try runProcess(["-c", source] + arguments)
            guard result.status == 0 else {
                throw Failure(status: result.status, message: String(decoding: result.error, as: UTF8.self))
            }
            return result.output
        }

        /// A Python program that failed.
        public struct Failure: Error, CustomStringConvertible {
            public var status: Int32
            public var message: String
            public var description: String { "python3 exited with \(status): \(message)" }
        }

        static func runProcess(_ arguments: [String]) throws -> (status: Int32, output: Data, error: Data) {
            let process = Process()
            // The first python3 on PATH: where pip put the modules (a virtual environment, pyenv).
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3"] + arguments
            let output = Pipe()
            // Standard error goes to a file, so a chatty program never blocks on a full pipe.
            let errorFile = FileManager.default.temporaryDirectory.appendingPathComponent(
                "python-oracle-\(UUID().uuidString).err")
            _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
            defer {
                // try?: a temporary file left behind harms nothing.
                try? FileManager.default.removeItem(at: errorFile)
            }
            process.standardOutput = output
            process.standardError = try FileHandle(forWritingTo: errorFile)
            try process.run()
            let outputData = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            let errorData = (try? Data(contentsOf: errorFile)) ?? Data()  // try?: an unreadable log is no log
            return (process.terminationStatus, outputData, errorData)
        }
    }
#endif
