import AlbumKitConformance
import Foundation
import Testing

@testable import AlbumKitCore

/// The libraries read no environment variable in release builds: a program hands them its
/// settings as a `LibraryConfiguration` (the `album` command reads its environment at its start,
/// `ProgramEnvironment`). Debug-only test seams (`#if DEBUG`) may read one, and
/// `LibraryConfiguration.conventionalEnvironment()` reads the user's conventional variables
/// (`HOME`, `XDG_*`, `AWS_*`) by name, as every freedesktop or AWS client does.
@Suite("Libraries read no environment variable")
struct LibraryEnvironmentTests {
    /// The library targets: everything a program linking AlbumKit runs.
    static let libraryTargets = [
        "AlbumKit", "AlbumKitCore", "AlbumKitCatalog", "AlbumKitFolders", "AlbumKitShared", "AlbumKitPhotoKit",
        "AlbumKitMedia", "AlbumKitPreviews", "AlbumServer", "CChecksumVFS", "CCurl", "CFFmpeg", "CLibPQ", "CLoading",
        "CMicroHTTPD", "CNearDuplicates", "COpenSSL", "CShims", "CSQLite", "CVips",
    ]
    /// The one read allowed: the conventional variables, by name.
    static let conventions = "AlbumKitCore/Platform/LibraryConfiguration.swift:"
    static let reads = ["ProcessInfo.processInfo.environment", "getenv(", "secure_getenv(", "environ["]

    /// `file:line: code` for each read outside an `#if DEBUG` block of `text`.
    static func reads(in text: String, file: String) -> [String] {
        var found: [String] = []
        // The open `#if`s, each `true` when it is `#if DEBUG`.
        var conditions: [Bool] = []
        for (index, line) in text.components(separatedBy: "\n").enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("#if") {
                conditions.append(trimmed == "#if DEBUG")
            } else if trimmed.hasPrefix("#else"), !conditions.isEmpty {
                conditions[conditions.count - 1] = false  // `#else` and `#elseif` of any `#if`
            } else if trimmed.hasPrefix("#endif"), !conditions.isEmpty {
                conditions.removeLast()
            }
            let code = line.components(separatedBy: "//")[0]
            guard !conditions.contains(true), reads.contains(where: { code.contains($0) }) else { continue }
            found.append("\(file):\(index + 1): \(trimmed)")
        }
        return found
    }

    @Test func noLibraryTargetReadsTheEnvironmentInReleaseBuilds() throws {
        let sources = Fixture.packageRoot.appendingPathComponent("Sources")
        var found: [String] = []
        for target in Self.libraryTargets {
            let folder = sources.appendingPathComponent(target)
            let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
            while let url = files?.nextObject() as? URL {
                guard ["swift", "c", "h"].contains(url.pathExtension) else { continue }
                let relative = String(url.path.dropFirst(sources.path.count + 1))
                found += Self.reads(in: try String(contentsOf: url, encoding: .utf8), file: relative).filter {
                    !$0.hasPrefix(Self.conventions)
                }
            }
        }
        #expect(found.isEmpty, "environment read in a library target:\n\(found.joined(separator: "\n"))")
    }

    /// The one place reading the environment takes only the user's conventions, never a setting of
    /// AlbumKit's own.
    @Test func theConventionalVariablesAreNoAlbumKitSetting() {
        #expect(LibraryConfiguration.conventionalVariables.allSatisfy { !$0.hasPrefix("ALBUMKIT") })
        #expect(
            LibraryConfiguration.conventionalEnvironment().keys.allSatisfy {
                LibraryConfiguration.conventionalVariables.contains($0)
            })
    }

    @Test func theCheckFindsAReadOutsideADebugBlock() {
        let text = """
            #if DEBUG
                let now = ProcessInfo.processInfo.environment["ALBUMKIT_NOW"]
            #endif
            #if os(Linux)
                let staging = getenv("ALBUMKIT_STAGING")
            #endif
            """
        #expect(Self.reads(in: text, file: "x.swift") == ["x.swift:5: let staging = getenv(\"ALBUMKIT_STAGING\")"])
    }
}
