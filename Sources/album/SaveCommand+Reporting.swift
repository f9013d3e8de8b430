import AlbumKit
import Foundation

extension SaveCommand {
    /// Prints what happened to an input the library never saw.
    static func reportBeforeSaving(
        _ input: Input, _ outcome: Early, _ arguments: Arguments, _ tally: Locked<Tally>
    ) {
        switch outcome {
        case .failed(let error): report(input, .failure(error), album: nil, arguments, tally)
        case .skipped(let reason, let message):
            tally.withLock { $0.skippedLinks += 1 }
            guard arguments.verbose else { return }
            if arguments.json {
                Output.json(SaveLine(file: input.path, fileBytes: input.exactBytes, skipped: reason))
            } else {
                Output.err("album: skipped \(Output.shown(input.path)) (\(message))")
            }
        case .catalogLibrary:
            tally.withLock { $0.libraries += 1 }
            if arguments.json {
                Output.json(SaveLine(file: input.path, fileBytes: input.exactBytes, skipped: "catalogLibrary"))
            } else if !arguments.quiet {
                Output.err(
                    "album: left out \(Output.shown(input.path)): it is an AlbumKit catalog library; its files are never saved or moved from inside it (open it with --library to use it)"
                )
            }
        case .orphan:
            tally.withLock { $0.orphans += 1 }
            if arguments.json {
                Output.json(SaveLine(file: input.path, fileBytes: input.exactBytes, skipped: "sidecarWithoutPhoto"))
            } else if !arguments.quiet {
                Output.err(
                    "album: not saved: \(Output.shown(input.path)) is a sidecar without its photo (no photo of that name beside it); it stays where it is"
                )
            }
        }
    }

    /// Prints one result as soon as it is final.
    static func report(
        _ input: Input, _ result: Result<SavedAsset, AlbumError>, album title: String?, _ arguments: Arguments,
        _ tally: Locked<Tally>, removal: Removal? = nil
    ) {
        switch result {
        case .success(let saved):
            // A copy put back in place of a missing or damaged one was stored: saved.
            let already = saved.isExisting && !saved.isRestored
            var moved = false
            switch removal {
            case .removed?:
                moved = true
                tally.withLock { $0.moved += 1 }
            case .kept?: tally.withLock { $0.notMoved += 1 }
            case .isLibraryFile?, .notSaved?, nil: break
            }
            // A file already in the library with nothing else to tell (not moved, restored, updated,
            // or with files left out) is one of the summary's count, unless -v lists it.
            var isLibraryFile = false
            if case .isLibraryFile? = removal { isLibraryFile = true }
            let folded =
                already && !arguments.verbose && !moved && saved.companionsUpdated.isEmpty
                && saved.companionsLeftOut.isEmpty && !isLibraryFile
            let name = input.path.split(separator: "/").last.map(String.init)
            let key = versionKey(name: name, captureDate: saved.metadata?.captureDate)
            let (tellsAlbum, earlier) = tally.withLock { tally -> (Bool, String?) in
                if already { tally.already += 1 } else { tally.saved += 1 }
                let clipCompanions = input.companions.filter {
                    String(bytes: $0.path.lastComponent.bytes, encoding: .utf8).map(CompanionGrouping.isClipCompanion)
                        ?? false
                }.count
                if !already && clipCompanions > 0 {
                    tally.clipCompanions += clipCompanions
                    tally.clipsWithCompanions += 1
                }
                if !already, !input.clipsClaiming.isEmpty, let name {
                    tally.unclaimedCopies.append((name, input.clipsClaiming))
                }
                var earlier: String?
                if !already, let key, let ids = tally.earlier[key]?.filter({ $0 != saved.assetID }), !ids.isEmpty {
                    earlier = ids.joined(separator: " ")
                    tally.newVersions += 1
                    tally.replaced += ids
                }
                if saved.isExisting && !saved.companionsUpdated.isEmpty { tally.updated += 1 }
                if saved.albumOutcome == .created, let title { tally.created.insert(title) }
                if folded && !arguments.json {
                    tally.folded += 1
                    return (false, nil)
                }
                // The album's outcome is said on the first line into it only (a save in batches
                // finds the album its first batch created: that is not news).
                guard let title, saved.albumOutcome != .notRequested else { return (false, earlier) }
                return (tally.told.insert(title).inserted, earlier)
            }
            if arguments.json {
                Output.json(
                    SaveLine(
                        file: input.path, fileBytes: input.exactBytes, asset: saved.assetID, album: saved.albumID,
                        albumOutcome: saved.albumOutcome == .notRequested ? nil : saved.albumOutcome.description,
                        existing: saved.isExisting ? true : nil,
                        restored: saved.isRestored ? true : nil, moved: removal.map { _ in moved },
                        companions: input.companions.isEmpty ? nil : input.companions.map(\.path.description),
                        companionsLeftOut: saved.companionsLeftOut.isEmpty ? nil : saved.companionsLeftOut,
                        companionsUpdated: saved.companionsUpdated.isEmpty ? nil : saved.companionsUpdated))
            } else if !arguments.quiet && !folded {
                let verb =
                    already ? (moved ? "already in the library (moved): " : alreadyPrefix) : moved ? "moved " : "saved "
                // Ids only with -v: a photographer reads names.
                var line = verb + Output.shown(input.path) + (arguments.verbose ? " as \(saved.assetID)" : "")
                if !already { line += input.withCompanions }
                if let title, saved.albumOutcome != .notRequested {
                    line += " in \"\(Output.shown(title))\""
                    if tellsAlbum { line += " (album \(saved.albumOutcome))" }
                }
                if let earlier {
                    line +=
                        " (a new version of the one already in the album, taken at the same time"
                        + (arguments.verbose ? ", \(earlier)" : "")
                        + (arguments.has(.replace) ? ": that one goes to recently deleted)" : ")")
                }
                if saved.isRestored { line += " (restored: the library's copy was missing or damaged)" }
                if case .isLibraryFile? = removal { line += " (it is the library's own file: left where it is)" }
                if saved.isExisting && !saved.companionsUpdated.isEmpty {
                    line += " (updated: \(saved.companionsUpdated.map(Output.shown).joined(separator: ", ")))"
                }
                if !saved.companionsLeftOut.isEmpty {
                    let names = saved.companionsLeftOut.map(Output.shown).joined(separator: ", ")
                    line +=
                        saved.isExisting
                        ? " (\(names) not kept: the library already holds this photo, with the files it was saved with)"
                        : " (\(names) not kept: this library has no place for them; they stay where they are)"
                }
                Output.out(line)
            }
            if case .kept(let error)? = removal {
                Output.err("album: \(Output.shown(error.message)) [\(error.code)]")
            }
        case .failure(let error) where error.code == .notMedia && input.fromFolder:
            tally.withLock { $0.skipped += 1 }
            guard arguments.verbose else { return }
            if arguments.json {
                Output.json(SaveLine(file: input.path, fileBytes: input.exactBytes, skipped: error.code.rawValue))
            } else {
                Output.err("album: skipped \(Output.shown(input.path)) (not a photo or video)")
            }
        case .failure(let error) where error.code == .cancelled:
            tally.withLock { $0.cancelled += 1 }
            if arguments.json {
                Output.json(SaveLine(file: input.path, fileBytes: input.exactBytes, error: .init(error)))
            }
        case .failure(let error):
            tally.withLock { $0.failed += 1 }
            if arguments.json {
                Output.json(SaveLine(file: input.path, fileBytes: input.exactBytes, error: .init(error)))
            }
            Output.err("album: \(Output.shown(error.message)) [\(error.code)]")
        }
    }

    /// How a file the library already holds is reported, in a real run and a dry run alike.
    static let alreadyPrefix = "already in the library: "

    /// The counts of a summary: "9 saved, 2 already in the library, 5 skipped (…)".
    static func counts(_ t: Tally, _ arguments: Arguments, saved: String, failed: String) -> [String] {
        var parts = ["\(t.saved) \(saved)"]
        if t.already > 0 {
            let updated = t.updated > 0 ? " (\(t.updated) with sidecars updated)" : ""
            parts.append("\(t.already) already in the library" + updated)
        }
        if t.newVersions > 0 {
            let count = t.newVersions
            parts.append(
                "\(count) new version\(count == 1 ? "" : "s") of \(count == 1 ? "a photo" : "photos") already in the album"
                    + (arguments.has(.replace) ? " (the earlier in recently deleted)" : ""))
        }
        if t.clipCompanions > 0 {
            let count = t.clipCompanions
            parts.append(
                "\(count) clip companion\(count == 1 ? "" : "s") (.THM, .LRV) kept with \(t.clipsWithCompanions) video\(t.clipsWithCompanions == 1 ? "" : "s")"
            )
        }
        if !t.unclaimedCopies.isEmpty {
            let count = t.unclaimedCopies.count
            let each = t.unclaimedCopies.sorted { $0.copy < $1.copy }.map {
                "\($0.copy): \($0.clips.sorted().joined(separator: " and ")) could each be its clip"
            }
            parts.append(
                "\(count) low-resolution cop\(count == 1 ? "y" : "ies") (.LRV) \(saved) as \(count == 1 ? "a video" : "videos") of \(count == 1 ? "its" : "their") own ("
                    + each.joined(separator: "; ") + ")")
        }
        if arguments.has(.move) && !arguments.dryRun { parts.append("\(t.moved) moved (removed from where they were)") }
        if t.notMoved > 0 { parts.append("\(t.notMoved) not moved (kept where they are)") }
        if t.skipped > 0 { parts.append("\(t.skipped) skipped (not photos or videos)") }
        if t.orphans > 0 {
            parts.append(
                "\(t.orphans) sidecar\(t.orphans == 1 ? "" : "s") without \(t.orphans == 1 ? "its" : "their") photo (not saved)"
            )
        }
        if t.skippedLinks > 0 { parts.append(linksSkipped(t.skippedLinks, listed: arguments.verbose)) }
        if t.libraries > 0 { parts.append("\(t.libraries) catalog librar\(t.libraries == 1 ? "y" : "ies") left out") }
        if let backup = arguments.value(.backup), !arguments.dryRun {
            var copies = "\(t.backedUp) second cop\(t.backedUp == 1 ? "y" : "ies") made in \(Output.shown(backup))"
            if t.backupsThere > 0 { copies += " (\(t.backupsThere) there already)" }
            parts.append(copies)
            if t.notBackedUp > 0 {
                parts.append("\(t.notBackedUp) without a second copy (named above)")
            }
        }
        if t.failed > 0 { parts.append("\(t.failed) \(failed)") }
        return parts
    }

    /// The one-line summary on stderr, and the exit status. `-q` prints it only when something
    /// failed.
    static func summary(_ arguments: Arguments, _ tally: Locked<Tally>, total: Int, walked: Bool) -> Int32 {
        let t = tally.withLock { $0 }
        var parts = counts(t, arguments, saved: "saved", failed: "failed")
        if Interruption.happened {
            parts.append("\(t.cancelled) not saved")
            Output.err("album: interrupted: " + parts.joined(separator: ", "))
            return 130
        }
        let wanted =
            walked || arguments.verbose || t.skipped > 0 || t.skippedLinks > 0 || t.orphans > 0 || t.libraries > 0
            || t.folded > 0 || (t.failed > 0 && total > 1)
        if wanted && (!arguments.quiet || t.failed > 0) {
            Output.err("album: " + parts.joined(separator: ", "))
        }
        return t.failed == 0 && t.cancelled == 0 && t.notMoved == 0 && t.notBackedUp == 0 ? 0 : 1
    }
}
