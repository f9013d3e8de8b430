/// How an index differs from the journal replayed afresh (``CatalogBackend/indexDisagreements()``):
/// the facts — an asset's row, an album with its kept and counted assets, a membership with its
/// place in the album, a remembered title — in one and not the other. Both are read in the same
/// order side by side, as a merge: time linear in the library, memory of one row of each.
///
/// ```swift
/// let difference = try CatalogDifference(index: index.db, journal: replayed.db)
/// if difference.lacking + difference.extra > 0 { print(difference.example ?? "") }
/// ```
struct CatalogDifference {
    /// Facts of the journal the index lacks.
    private(set) var lacking = 0
    /// Facts of the index the journal does not hold.
    private(set) var extra = 0
    /// One differing fact, as a line of its values.
    private(set) var example: String?

    /// Each kind of fact: how many columns after the kind name its key is, and the query that
    /// lists them ordered by that key.
    static let facts: [(keyColumns: Int, sql: String)] = [
        (
            1,
            "SELECT 'asset', id, state, kind, format, path, original_name, byte_size, sha256, added_at, deleted_at, companions, added_key, taken_key FROM asset ORDER BY id"
        ),
        (
            1,
            """
            SELECT 'album', a.id, a.title, a.created_at, a.ready_count, a.ready_bytes,
                (SELECT count(*) FROM album_asset m JOIN asset s ON s.id = m.asset_id WHERE m.album_id = a.id AND s.state = 'ready'),
                (SELECT coalesce(sum(s.byte_size), 0) FROM album_asset m JOIN asset s ON s.id = m.asset_id WHERE m.album_id = a.id AND s.state = 'ready')
            FROM album a ORDER BY a.id
            """
        ),
        (
            // By album and place (read in the order of `album_asset_order`, nothing sorted: a sort of
            // every membership held up to its own 8 MB per side).
            2,
            """
            SELECT 'in', album_id, row_number() OVER (PARTITION BY album_id ORDER BY position) - 1, asset_id, taken_key
            FROM album_asset ORDER BY album_id, position
            """
        ),
        // The kept counts of the albums' blocks (a block emptied and one never filled are alike).
        (
            2,
            "SELECT 'block', album_id, block, ready_count FROM album_block WHERE ready_count <> 0 ORDER BY album_id, block"
        ),
        (1, "SELECT 'remembered', title_key, album_id FROM remembered_album ORDER BY title_key"),
        (2, "SELECT 'companion', path, asset_id FROM companion_file ORDER BY path, asset_id"),
    ]

    /// Compares `index` with `journal` (the journal replayed into a database of its own).
    init(index: Database, journal: Database) throws {
        for fact in Self.facts {
            let left = try index.statement(fact.sql)
            let right = try journal.statement(fact.sql)
            defer {
                left.reset()
                right.reset()
            }
            var inIndex = try left.step()
            var inJournal = try right.step()
            while inIndex != nil || inJournal != nil {
                let order: Int
                if let inIndex, let inJournal {
                    order = Self.compare(
                        inIndex.values[1...fact.keyColumns], inJournal.values[1...fact.keyColumns])
                } else {
                    order = inIndex == nil ? 1 : -1
                }
                if order < 0, let row = inIndex {
                    extra += 1
                    note(row)
                    inIndex = try left.step()
                } else if order > 0, let row = inJournal {
                    lacking += 1
                    note(row)
                    inJournal = try right.step()
                } else if let indexRow = inIndex, let journalRow = inJournal {
                    if indexRow.values != journalRow.values {
                        extra += 1
                        lacking += 1
                        note(journalRow)
                    }
                    inIndex = try left.step()
                    inJournal = try right.step()
                }
            }
        }
    }

    private mutating func note(_ row: Row) {
        guard example == nil else { return }
        example = row.values.map { value -> String in
            switch value {
            case .null: "∅"
            case .integer(let v): String(v)
            case .real(let v): String(v)
            case .text(let v): v
            }
        }.joined(separator: " ")
    }

    /// SQLite's order of keys: NULL first, then numbers, then text by its bytes (`BINARY`).
    static func compare(_ left: ArraySlice<SQLValue>, _ right: ArraySlice<SQLValue>) -> Int {
        for (a, b) in zip(left, right) {
            let order = compare(a, b)
            if order != 0 { return order }
        }
        return 0
    }

    private static func compare(_ a: SQLValue, _ b: SQLValue) -> Int {
        func rank(_ value: SQLValue) -> Int {
            switch value {
            case .null: 0
            case .integer, .real: 1
            case .text: 2
            }
        }
        guard rank(a) == rank(b) else { return rank(a) < rank(b) ? -1 : 1 }
        switch (a, b) {
        case (.text(let x), .text(let y)):
            if x == y { return 0 }
            return x.utf8.lexicographicallyPrecedes(y.utf8) ? -1 : 1
        case (.null, .null): return 0
        default:
            let x = number(a)
            let y = number(b)
            return x == y ? 0 : x < y ? -1 : 1
        }
    }

    private static func number(_ value: SQLValue) -> Double {
        switch value {
        case .integer(let v): Double(v)
        case .real(let v): v
        default: 0
        }
    }
}
