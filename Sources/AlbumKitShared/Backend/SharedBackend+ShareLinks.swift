#if os(Linux)
    import AlbumKitCore
    import Foundation

    /// A shared library keeps its share links in the table `share_link` (schema 6): every server on
    /// every machine reads the same rows, a revocation is one `DELETE` all of them see at their next
    /// request, and wrong PINs are counted by the database.
    extension SharedBackend: ShareLinkKeeping {
        static let shareLinkColumns = "id, album_id, rights, created_at, expires_at, token_hash, pin_hash, failed_pins"

        package func shareLinks() async throws -> [ShareLink] {
            try await Blocking.run {
                try self.withDatabase("read the share links") { db in
                    try db.execute("SELECT \(Self.shareLinkColumns) FROM share_link ORDER BY created_at, id")
                        .compactMap(Self.shareLink(fromRow:))
                }
            }
        }

        package func shareLink(withTokenHash tokenHash: String) async throws -> ShareLink? {
            try await Blocking.run {
                try self.withDatabase("read the share links") { db in
                    try db.execute(
                        "SELECT \(Self.shareLinkColumns) FROM share_link WHERE token_hash = $1", [tokenHash]
                    ).compactMap(Self.shareLink(fromRow:)).first
                }
            }
        }

        package func addShareLink(_ link: ShareLink) async throws {
            try await Blocking.run {
                try self.withDatabase("make a share link", retrying: false) { db in
                    _ = try db.execute(
                        """
                        INSERT INTO share_link (id, album_id, rights, created_at, expires_at, token_hash, pin_hash)
                        VALUES ($1, $2, $3, $4, $5, $6, $7)
                        """,
                        [
                            link.id, link.albumID, link.rights.rawValue, String(link.createdAt.timeIntervalSince1970),
                            link.expiresAt.map { String($0.timeIntervalSince1970) }, link.tokenHash, link.pinHash,
                        ])
                }
            }
        }

        package func removeShareLinks(withIDs ids: Set<String>) async throws -> [String] {
            let list = ids.sorted()
            return try await Blocking.run {
                try self.withDatabase("revoke share links") { db in
                    try db.execute(
                        "DELETE FROM share_link WHERE id = ANY($1::text[]) RETURNING id", [Self.arrayLiteral(list)]
                    )
                    .compactMap { $0.first ?? nil }
                }
            }
        }

        package func recordWrongPIN(forLinkWithID id: String) async throws -> Int? {
            try await Blocking.run {
                try self.withDatabase("count a wrong PIN", retrying: false) { db in
                    try db.value(
                        "UPDATE share_link SET failed_pins = failed_pins + 1 WHERE id = $1 RETURNING failed_pins", [id]
                    ).flatMap { Int($0) }
                }
            }
        }

        /// A row of ``shareLinkColumns`` as a link; `nil` when a value is not one AlbumKit writes
        /// (such a row opens nothing).
        static func shareLink(fromRow row: [String?]) -> ShareLink? {
            guard row.count == 8, let id = row[0], let album = row[1],
                let rights = row[2].flatMap(ShareLink.Rights.init),
                let created = row[3].flatMap(Double.init), let token = row[5]
            else { return nil }
            let link = ShareLink(
                id: id, albumID: album, rights: rights, createdAt: Date(timeIntervalSince1970: created),
                expiresAt: row[4].flatMap(Double.init).map { Date(timeIntervalSince1970: $0) }, tokenHash: token,
                pinHash: row[6], failedPINAttempts: row[7].flatMap { Int($0) } ?? 0)
            return link.isWellFormed ? link : nil
        }
    }
#endif
