/// How a save recognises a file the library already holds, before it copies anything.
///
/// ```swift
/// let results = await library.save(media, recognising: .quick)   // re-importing a card: nothing copied
/// ```
package enum RecognitionCheck: Sendable, Hashable {
    /// Every file is copied and hashed; the library compares the bytes (what the API does).
    case content
    /// rsync's quick check, which photographers already trust: a file with the same original name,
    /// size and modification time as one the library holds is that asset, recognised without being
    /// read. Files not recognised are saved as with ``content`` (so a renamed copy is still found).
    case quick
    /// Each file is hashed (read once) and compared with the SHA-256 the library records, never
    /// with a second reading of the library's copy; only files not recognised are copied.
    case checksum
}
