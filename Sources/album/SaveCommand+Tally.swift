import AlbumKit
import Foundation

extension SaveCommand {
    struct Tally {
        var saved = 0
        /// Files the library already held: not stored again (added to the album where missing).
        var already = 0
        /// Of those, files whose companions (sidecars, raws) were new or changed: updated.
        var updated = 0
        var failed = 0
        var skipped = 0
        /// Symbolic links in a walked folder that lead to a folder or to nothing.
        var skippedLinks = 0
        var cancelled = 0
        /// `--move`: sources removed, and those kept because their copy could not be checked.
        var moved = 0
        var notMoved = 0
        /// Sidecars found without their photo: not saved, reported.
        var orphans = 0
        /// A clip's `.THM` and `.LRV` files saved with it (not as photos and videos of their own).
        var clipCompanions = 0
        /// The videos they were saved with.
        var clipsWithCompanions = 0
        /// GoPro low-resolution copies saved as videos of their own because two clips of their
        /// number could each claim them: each copy's name and those clips'.
        var unclaimedCopies: [(copy: String, clips: [String])] = []
        /// Catalog libraries found in a folder walked: left out, reported.
        var libraries = 0
        /// The albums this save created.
        var created: Set<String> = []
        /// The albums whose outcome (created, found) a line has said: each is said once.
        var told: Set<String> = []
        /// Files already in the library with nothing else to say, left out of the text unless `-v`:
        /// the summary counts them.
        var folded = 0
        /// The album's assets before the save, by original name (A–Z case aside) and capture date: a
        /// file saved with the same name and capture date is a new version of one of them.
        var earlier: [String: [String]] = [:]
        /// Files saved that are a new version of one in the album, and the assets they are new
        /// versions of (`--replace` deletes them afterwards).
        var newVersions = 0
        var replaced: [String] = []
        /// `--backup`: second copies written, found there already, and files without one.
        var backedUp = 0
        var backupsThere = 0
        var notBackedUp = 0
    }
}
