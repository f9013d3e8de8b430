import AlbumKit
import Foundation

/// `album duplicates [--album TITLE] [--remove-extra [--dry-run]] [--json]`: the library's duplicates in
/// three classes kept apart (same file, same picture, similar), and on request the extra copies into
/// recently deleted (a folder library: the Trash).
enum DuplicateCommand {
    static func run(_ arguments: Arguments) async throws -> Int32 {
        let removing = arguments.has(.removeExtra)
        if arguments.has(.dryRun) && !removing {
            throw AlbumCommand.UsageFailure(message: "--dry-run goes with --remove-extra (duplicates removes nothing)")
        }
        let library = try LibraryChoice.open(arguments, create: false)
        if !arguments.json && !arguments.quiet && Output.isTerminal {
            Output.err("comparing photos (the first run computes each photo's hashes; later runs reuse them)…")
        }
        let search = try await DuplicateSearch.run(in: library, albumTitled: arguments.value(.album))
        var removed: [String] = []
        let extras = search.groups.flatMap(\.extras)
        if removing && !arguments.has(.dryRun) && !extras.isEmpty {
            removed = try await library.deleteAssets(withIDs: extras.map(\.id)).map(\.id)
        }
        if arguments.json {
            Output.json(Report(search, removed: removed, wouldRemove: arguments.has(.dryRun) ? extras.map(\.id) : []))
            return search.failures.isEmpty ? 0 : 1
        }
        if !arguments.quiet {
            for group in search.groups {
                let title: String
                switch group.kind {
                case .sameFile: title = "same file, \(group.members.count) copies"
                case .samePicture: title = "same picture, \(group.members.count) files"
                case .similar: title = "similar\(group.isBurst ? " (burst)" : ""), \(group.members.count) pictures"
                }
                Output.out(title + ":")
                for (place, member) in group.members.enumerated() {
                    let mark = group.kind == .similar ? "     " : place == 0 ? "keep " : "extra"
                    Output.out("  \(mark)  " + line(member))
                }
            }
        }
        for failure in search.failures {
            Output.err("\(Output.shown(failure.name)): no perceptual hash: \(failure.reason)")
        }
        let counts = DuplicateGroup.Kind.allCases.map { kind in search.groups.filter { $0.kind == kind }.count }
        var summary =
            "\(search.assetCount) assets compared: \(counts[0]) same-file, \(counts[1]) same-picture, \(counts[2]) similar groups"
            + " (hashes computed \(search.computed), reused \(search.reused), failed \(search.failures.count))"
        if removing {
            summary +=
                arguments.has(.dryRun)
                ? "; would remove \(extras.count) extra copies" : "; removed \(removed.count) extra copies"
        } else if !extras.isEmpty {
            summary +=
                "; --remove-extra removes the \(extras.count) extra copies (into recently deleted; a folder library: the Trash)"
        }
        if !arguments.quiet || !search.failures.isEmpty { Output.out(summary) }
        return search.failures.isEmpty ? 0 : 1
    }

    /// `IMG_1001.JPG  4000x3000  3.1 MB  taken 2026-05-01 12:00:00  in Trip, Family  (id)`.
    static func line(_ member: DuplicateCandidate) -> String {
        var parts = [Output.shown(member.name)]
        if let width = member.pixelWidth, let height = member.pixelHeight { parts.append("\(width)x\(height)") }
        if let bytes = member.byteSize { parts.append(Output.size(bytes)) }
        if let taken = member.capturedAt { parts.append("taken " + Self.date(taken)) }
        parts.append("added " + Self.date(member.addedAt))
        if !member.albums.isEmpty { parts.append("in " + member.albums.map(Output.shown).joined(separator: ", ")) }
        parts.append("(\(member.id))")
        return parts.joined(separator: "  ")
    }

    static func date(_ date: Date) -> String {
        String(ISO8601DateFormatter().string(from: date).prefix(19)).replacingOccurrences(of: "T", with: " ")
    }

    /// The `--json` object (Docs/cli-json.md).
    struct Report: Encodable {
        struct Member: Encodable {
            var id: String
            var name: String
            var keep: Bool?
            var sha256: String?
            var size: Int64?
            var width: Int?
            var height: Int?
            var taken: Date?
            var added: Date
            var camera: String?
            var albums: [String]
            var dhash: String?
            var phash: String?
        }
        struct Group: Encodable {
            var kind: String
            var burst: Bool?
            var members: [Member]
        }
        var groups: [Group]
        var assets: Int
        var hashesComputed: Int
        var hashesReused: Int
        var failures: [[String: String]]
        var removed: [String]
        var wouldRemove: [String]?

        init(_ search: DuplicateSearch, removed: [String], wouldRemove: [String]) {
            groups = search.groups.map { group in
                Group(
                    kind: group.kind.rawValue, burst: group.kind == .similar ? group.isBurst : nil,
                    members: group.members.enumerated().map { place, member in
                        Member(
                            id: member.id, name: member.name, keep: group.kind == .similar ? nil : place == 0,
                            sha256: member.sha256, size: member.byteSize, width: member.pixelWidth,
                            height: member.pixelHeight, taken: member.capturedAt, added: member.addedAt,
                            camera: member.camera, albums: member.albums,
                            dhash: member.hash.map { String($0.hexadecimal.prefix(16)) },
                            phash: member.hash.map { String($0.hexadecimal.suffix(16)) })
                    })
            }
            assets = search.assetCount
            hashesComputed = search.computed
            hashesReused = search.reused
            failures = search.failures.map { ["name": $0.name, "reason": $0.reason] }
            self.removed = removed
            self.wouldRemove = wouldRemove.isEmpty ? nil : wouldRemove
        }
    }
}
