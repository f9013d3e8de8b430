#if os(Linux)
    import AlbumKitCore
    import Foundation

    /// Reading objects back from the store. Exporting and copying out (whole objects into files),
    /// `verify` (whole objects through a hash) and thumbnails and recognition (ranges of an original)
    /// all go through ``readObject(_:record:doing:_:)``; whole objects are checked against the size
    /// and SHA-256 the library recorded as they arrive (``download(_:size:named:record:into:)``).
    extension SharedBackend {
        /// The one way an object the library names is read. Its key is made from `sha256` only once
        /// that is checked to be a SHA-256 (a damaged row, described by `record`, is refused, never
        /// turned into a key); `body` reads the object at that key. Returns the key, and `nil` for
        /// the value when the store has no such object. A failure writing locally (`SystemError`,
        /// the export folder) is passed on for the caller to name; any other failure is mapped,
        /// `doing` saying what was being done.
        ///
        /// ```swift
        /// let (key, read) = try readObject(sha256, record: "The record of IMG_1.JPG", doing: "verify the library") {
        ///     try store.get(key: $0, into: nil)
        /// }
        /// ```
        func readObject<T>(
            _ sha256: String, record: String, doing: String, _ body: (_ key: String) throws -> T
        ) throws -> (key: String, value: T?) {
            let key = try store.key(SharedSchema.objectName(sha256: sha256, of: record))
            do {
                return (key, try body(key))
            } catch let error as ObjectStoreError where error.status == 404 {
                return (key, nil)
            } catch let error as SystemError {
                throw error
            } catch {
                throw Self.map(error, doing, library: displayURL, store: storeIfKnown)
            }
        }

        /// Downloads the object `sha256` whole into `file`, hashing it as it arrives, and fails
        /// with `.libraryCorrupt` when the store does not have it or its bytes are not those the
        /// library recorded (`size`, when known, and `sha256`). `name` names it in messages
        /// ("The original of IMG_1.JPG").
        func download(
            _ sha256: String, size: Int64?, named name: String, record: String, into file: FileSystem.Descriptor
        ) throws {
            let (key, received) = try readObject(sha256, record: record, doing: "download \(name)") {
                try store.get(key: $0, into: file)
            }
            guard let received else {
                throw AlbumError(
                    .libraryCorrupt, "\(name) (\(key)) is missing from the object store; run `album verify`.",
                    underlying: ObjectStoreError(status: 404, code: "NoSuchKey", message: "", key: key))
            }
            guard received.sha256 == sha256, size.map({ UInt64($0) == received.size }) ?? true else {
                throw AlbumError(
                    .libraryCorrupt,
                    "\(name) (\(key)) is damaged in the object store (SHA-256 \(received.sha256), the library says \(sha256)); nothing was written for it. Run `album verify`."
                )
            }
        }

        /// Writes the original of `asset` into `file`, checked as it arrives.
        package func copyOriginal(of asset: AssetInfo, into file: FileSystem.Descriptor) throws -> Bool {
            guard let sha256 = asset.sha256 else { return false }
            let name = asset.originalFilename ?? asset.id
            try download(
                sha256, size: asset.byteSize, named: "The original of \(name)",
                record: "The record of \(name) (asset \(asset.id))", into: file)
            return true
        }

        /// Writes the object of `companion` into `file`, checked as it arrives.
        package func copyCompanion(_ companion: AssetCompanion, into file: FileSystem.Descriptor) throws -> Bool {
            guard let sha256 = companion.sha256 else { return false }
            try download(
                sha256, size: companion.byteSize, named: companion.originalFilename,
                record: "The record of \(companion.originalFilename)", into: file)
            return true
        }

        /// Reads the asset's original from the object store, only the ranges `body` reads
        /// (``ObjectByteSource``).
        package func readOriginal<T: Sendable>(
            ofAssetWithID id: String, _ body: @escaping @Sendable (any ByteSource) throws -> T
        ) async throws -> T? {
            try await Blocking.run {
                let row = try self.withDatabase("find the asset") { db in
                    try db.execute(
                        "SELECT sha256, byte_size, original_name FROM asset WHERE id = $1 AND deleted_at IS NULL", [id]
                    ).first
                }
                guard let row, let sha256 = row[0], let size = row[1].flatMap({ UInt64($0) }) else {
                    throw AlbumError(
                        .assetNotFound, "There is no asset with the identifier \(id) in \(self.displayURL).")
                }
                let name = row[2] ?? id
                let (key, value) = try self.readObject(
                    sha256, record: "The record of \(name) (asset \(id))", doing: "read the original of \(name)"
                ) { key in
                    try body(ObjectByteSource(store: self.store, key: key, size: size))
                }
                guard let value else {
                    throw AlbumError(
                        .libraryCorrupt,
                        "The original of \(name) (\(key)) is missing from the object store; run `album verify`.",
                        underlying: ObjectStoreError(status: 404, code: "NoSuchKey", message: "", key: key))
                }
                return value
            }
        }
    }
#endif
