#if os(Linux)
    import AlbumKitCore
    import AlbumKitMedia
    import AlbumKitPreviews

    /// A shared library keeps the thumbnails and previews it makes in its object store, under
    /// `PREFIX/derivatives/<size>/<first two hex digits>/<SHA-256 of the original>.jpg`
    /// (``KeptDerivative``): keyed by content, so every machine and every `album serve` reuses them.
    /// A cache, never the truth: an object there is believed only when it is a JPEG within its size
    /// that decodes whole; anything else (damaged, cut short, forged, of the wrong size) is made
    /// again from the original and put in its place. A member whose keys may not write to the store
    /// still gets its thumbnails, made for each request.
    extension SharedBackend: PreviewKeeping {
        package var keptSizes: [PreviewSize] { PreviewSize.allCases }

        /// The key of the derivative of the original `sha256` at `size`; `nil` for a value that is
        /// not a SHA-256 (rows are not believed: nothing is read or written through it).
        func derivativeKey(sha256: String, size: PreviewSize) -> String? {
            // The store is known once rows were read (the settings come first).
            guard let store = storeIfKnown else { return nil }
            return KeptDerivative.name(sha256: sha256, pixels: size.pixels).map { store.key($0) }
        }

        package func preview(ofAssetWithID id: String, size: PreviewSize) async throws -> (
            preview: RenderedPreview, wasKept: Bool
        )? {
            try await Blocking.run {
                let row = try self.withDatabase("find the asset") { db in
                    try db.execute(
                        "SELECT sha256, byte_size, original_name, kind FROM asset WHERE id = $1 AND deleted_at IS NULL",
                        [id]
                    ).first
                }
                guard let row, let sha256 = row[0], let byteSize = row[1].flatMap({ UInt64($0) }) else {
                    throw AlbumError(
                        .assetNotFound, "There is no asset with the identifier \(id) in \(self.displayURL).")
                }
                let name = row[2] ?? id
                let record = "The record of \(name) (asset \(id))"
                guard let key = self.derivativeKey(sha256: sha256, size: size) else {
                    throw SharedSchema.damagedRow(sha256, of: record)
                }
                if let kept = self.keptDerivative(at: key, size: size) { return (kept, true) }
                let clipThumbnail = row[3] == "video" ? self.clipThumbnail(ofAssetWithID: id) : nil
                let (original, read) = try self.readObject(sha256, record: record, doing: "picture \(name)") {
                    original in
                    try PreviewPipeline.render(
                        ObjectByteSource(store: self.store, key: original, size: byteSize), maxPixelSize: size.pixels,
                        file: original, clipThumbnail: clipThumbnail, shownAs: "\(name) (\(original))")
                }
                guard let read else {
                    throw AlbumError(
                        .libraryCorrupt,
                        "The original of \(name) (\(original)) is missing from the object store; run `album verify`.",
                        underlying: ObjectStoreError(status: 404, code: "NoSuchKey", message: "", key: original))
                }
                guard let made = read else { return nil }
                self.keep(made, at: key)
                return (made, false)
            }
        }

        /// The bytes of the `.THM` kept with video `id` (a camera's JPEG of the clip, saved as its
        /// companion), read in one GET and believed only when they are the bytes the library recorded
        /// (their size and SHA-256); `nil` when it has none or they are not (the poster frame is
        /// decoded then).
        func clipThumbnail(ofAssetWithID id: String) -> [UInt8]? {
            let query = "SELECT name, sha256, byte_size FROM asset_companion WHERE asset_id = $1"
            guard
                // Unreadable companions: the frame is decoded instead, as without a .THM.
                let rows = try? withDatabase("find the clip's companions", { db in try db.execute(query, [id]) }),
                let row = rows.filter({ CompanionGrouping.isClipThumbnail($0[0] ?? "") })
                    .min(by: { ($0[0] ?? "") < ($1[0] ?? "") }),
                let sha256 = row[1], let size = row[2].flatMap({ Int($0) }),
                // A camera's thumbnail is a few kilobytes: anything over 16 MB is no thumbnail.
                (1...(16 << 20)).contains(size),
                let name = try? SharedSchema.objectName(sha256: sha256)  // not a digest: not believed
            else { return nil }
            // Missing or unreadable: the frame is decoded; what is read is checked below.
            guard let bytes = try? store.get(key: store.key(name), offset: 0, count: size + 1), bytes.count == size,
                bytes.withUnsafeBytes({ SHA256Hasher.hash($0) }) == sha256
            else { return nil }
            return bytes
        }

        /// The derivative kept at `key` when it is a JPEG of at most `size` that decodes whole (decoded
        /// the first time these bytes are read, ``DecodedDerivatives``); `nil`
        /// when there is none, or it is anything else (then it is made again and replaced).
        private func keptDerivative(at key: String, size: PreviewSize) -> RenderedPreview? {
            // One ranged GET, a byte more than any kept derivative may be: a larger object (forged)
            // is never read whole into memory, and is not believed.
            let limit = 16 << 20
            // Missing (404), unreadable or refused: it is made again from the original, whose read
            // says what is wrong with the store if anything is.
            guard let bytes = try? store.get(key: key, offset: 0, count: limit + 1), bytes.count <= limit else {
                return nil
            }
            return DecodedDerivatives.shared.believed(bytes, largestSide: size.pixels, formats: [.jpeg])
        }

        /// Puts `made` at `key`, in place of whatever is there (a PUT replaces an object atomically).
        /// A store that refuses (keys that may only read) is not asked again by this process; any
        /// failure leaves the thumbnail given but not kept, as a cache may be.
        private func keep(_ made: RenderedPreview, at key: String) {
            guard made.format == .jpeg, !keepingRefused.withLock({ $0 }) else { return }
            do {
                try store.put(key: key, bytes: made.bytes, contentType: "image/jpeg")
            } catch let error as ObjectStoreError where error.status == 403 {
                keepingRefused.withLock { $0 = true }
            } catch {
                // Not kept this time (the store is busy or unreachable): made again on the next request.
            }
        }
    }
#endif
