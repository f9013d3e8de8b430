import AlbumKit
import Foundation

extension SaveCommand {

    /// Predicts, line for line, what the same save would print, and writes nothing: files the
    /// library already holds are recognised as the save recognises them (`check`), the others
    /// inspected, then hashed to find those the library (or an earlier file of this run) holds under
    /// another name.
    static func dryRun(
        _ arguments: Arguments, _ inputs: [Input], _ titles: [String?],
        early: [(position: Int, input: Input, outcome: Early)], check: RecognitionCheck
    ) async throws -> Int32 {
        let (url, _) = try LibraryChoice.resolve(arguments, create: true)
        for title in Set(titles.compactMap { $0 }) { _ = try AlbumTitle(title) }
        // The library as it is; one that does not exist yet holds nothing (and is not created).
        let exists = url.map { FileManager.default.fileExists(atPath: $0.path) } ?? true
        let library: PhotoLibrary? = exists ? try LibraryChoice.open(arguments, create: false) : nil
        var title: String?
        var albumID: String?
        switch arguments.album.map(AlbumReference.init) {
        case .title(let given): title = given
        case .id(let id):
            if let library {
                title = try await library.album(withID: id, accessPolicy: .requireAlbum).title
                albumID = id
            }
        case nil: break
        }
        let media = inputs.map(\.media)
        // Each file looked for where its save would look: its album, by date or the one given.
        let byDate = arguments.has(.albumByDate)
        func recognise(_ probes: [FileProbe?], _ indices: [Int]) async throws -> [RecognisedFile?] {
            guard let library, probes.contains(where: { $0 != nil }) else { return probes.map { _ in nil } }
            guard byDate else { return try await library.recognise(probes, in: title, albumID: albumID) }
            var found = [RecognisedFile?](repeating: nil, count: probes.count)
            for album in Set(indices.map { titles[$0] }) {
                let offsets = probes.indices.filter { titles[indices[$0]] == album }
                let part = try await library.recognise(offsets.map { probes[$0] }, in: album)
                for (offset, known) in zip(offsets, part) { found[offset] = known }
            }
            return found
        }
        var probes = await probe(media, hashing: check == .checksum)
        var found = try await recognise(probes, Array(inputs.indices))
        // Companions that differ by name, size or time are compared by content, as the save compares
        // them once it has copied them: only those of other bytes would be updated.
        if check == .quick {
            let differing = inputs.indices.filter { found[$0]?.companionsToUpdate.isEmpty == false }
            let read = await probe(differing.map { media[$0] }, hashing: true)
            let byContent = try await recognise(read, differing)
            for (offset, index) in differing.enumerated() where byContent[offset] != nil {
                found[index] = byContent[offset]
            }
        }
        // Not recognised: inspected, as staging inspects; media then compared by content.
        // What each reader learnt, not the reader: it holds its file open (thousands of files).
        var readers: [Int: Result<(metadata: MediaMetadata, size: UInt64), AlbumError>] = [:]
        for index in inputs.indices where found[index] == nil {
            readers[index] = Result {
                let reader = try MediaReader(media[index])
                return (reader.metadata, UInt64(reader.size))
            }.mapError { AlbumError.wrap($0, file: inputs[index].path) }
        }
        if check == .quick {
            let unknown = inputs.indices.filter { if case .success = readers[$0] { true } else { false } }
            let read = await probe(unknown.map { media[$0] }, hashing: true)
            for (offset, index) in unknown.enumerated() { probes[index] = read[offset] }
            let byContent = try await recognise(unknown.map { probes[$0] }, unknown)
            for (offset, index) in unknown.enumerated() { found[index] = byContent[offset] }
        }

        let tally = Locked(Tally())
        var firstWithContent: [String: String] = [:]  // size/SHA-256 → the first file of this run with it
        func already(
            _ input: Input, _ title: String?, as asset: String?, in album: String? = nil, sameAs first: String? = nil,
            updating: [String] = []
        ) {
            // As the real run: nothing else to tell, counted in the summary unless -v.
            let folded = !arguments.verbose && updating.isEmpty && !arguments.has(.move) && !arguments.json
            tally.withLock {
                $0.already += 1
                if !updating.isEmpty { $0.updated += 1 }
                if folded { $0.folded += 1 }
            }
            if arguments.json {
                Output.json(
                    SaveLine(
                        file: input.path, fileBytes: input.exactBytes, asset: asset, album: album, existing: true,
                        companionsUpdated: updating.isEmpty ? nil : updating))
            } else if !arguments.quiet && !folded {
                // --move: a file the library holds is removed too, once its copy is checked.
                var line =
                    (arguments.has(.move) ? "already in the library (would move): " : alreadyPrefix)
                    + Output.shown(input.path)
                if let asset, arguments.verbose { line += " as \(asset)" }
                if let title { line += " in \"\(Output.shown(title))\"" }
                if let first { line += " (the same as \(Output.shown(first)))" }
                if !updating.isEmpty {
                    line += " (would update: \(updating.map(Output.shown).joined(separator: ", ")))"
                }
                Output.out(line)
            }
        }
        for (position, input) in inputs.enumerated() {
            for refused in early where refused.position == position {
                reportBeforeSaving(refused.input, refused.outcome, arguments, tally)
            }
            if let known = found[position] {
                already(
                    input, titles[position], as: known.assetID, in: known.albumID, updating: known.companionsToUpdate)
                continue
            }
            let reader: (metadata: MediaMetadata, size: UInt64)
            switch readers[position] {
            case .success(let opened)?: reader = opened
            case .failure(let error)?:
                report(input, .failure(error), album: nil, arguments, tally)
                continue
            case nil: continue
            }
            if let probe = probes[position], let sha256 = probe.sha256 {
                let content = "\(probe.size)/\(sha256)"
                if let first = firstWithContent[content] {
                    already(input, titles[position], as: nil, sameAs: first)
                    continue
                }
                firstWithContent[content] = input.path
            }
            tally.withLock {
                $0.saved += 1
                if !input.clipsClaiming.isEmpty, let name = input.path.split(separator: "/").last.map(String.init) {
                    $0.unclaimedCopies.append((name, input.clipsClaiming))
                }
            }
            let m = reader.metadata
            if arguments.json {
                var line = SaveLine(file: input.path, fileBytes: input.exactBytes)
                line.wouldSave = true
                line.kind = m.kind.rawValue
                line.format = m.format.rawValue
                if !input.companions.isEmpty { line.companions = input.companions.map(\.path.description) }
                Output.json(line)
            } else if !arguments.quiet {
                var details = [m.format.rawValue]
                if let w = m.width, let h = m.height { details.append("\(w)×\(h)") }
                details.append(Output.size(Int64(reader.size)))
                let verb = arguments.has(.move) ? "would move " : "would save "
                var line =
                    verb + "\(Output.shown(input.path)) (\(details.joined(separator: ", ")))" + input.withCompanions
                if byDate, let title = titles[position] { line += " in \"\(Output.shown(title))\"" }
                Output.out(line)
            }
        }
        for refused in early where refused.position >= inputs.count {
            reportBeforeSaving(refused.input, refused.outcome, arguments, tally)
        }
        let t = tally.withLock { $0 }
        if !arguments.quiet || t.failed > 0 {
            let parts = counts(t, arguments, saved: "would be saved", failed: "would fail")
            Output.err("album: dry run, nothing written: " + parts.joined(separator: ", "))
        }
        return t.failed == 0 ? 0 : 1
    }

    /// Each file's album title for `format`: from its capture date, else its modification time;
    /// `nil` for a file that cannot be inspected (its save reports why).
    static func datedTitles(_ media: [Media], _ format: AlbumDateFormat) async -> [String?] {
        let titles = Locked([String?](repeating: nil, count: media.count))
        await Blocking.forEach(media.count) { index in
            // A file that cannot be inspected fails its save with the reason: no title is lost.
            guard let reader = try? MediaReader(media[index]) else { return }
            let modified = reader.modified.map {
                Date(timeIntervalSince1970: TimeInterval($0.seconds) + TimeInterval($0.nanoseconds) / 1e9)
            }
            let moment = AlbumDateFormat.moment(captureDate: reader.metadata.captureDate, modified: modified)
            let title = moment.map(format.title(for:))
            titles.withLock { $0[index] = title }
        }
        return titles.withLock { $0 }
    }

    /// Each file's probe (``FileProbe``), read whole when `hashing`, on every core.
    static func probe(_ media: [Media], hashing: Bool) async -> [FileProbe?] {
        let probes = Locked([FileProbe?](repeating: nil, count: media.count))
        await Blocking.forEach(media.count) { index in
            let probe = FileProbe(media[index], hashing: hashing)
            probes.withLock { $0[index] = probe }
        }
        return probes.withLock { $0 }
    }
}
