/// How much ``PhotoLibrary/verify(_:progress:)`` checks beyond every file.
///
/// ```swift
/// let report = try await library.verify(.thorough)
/// ```
public enum VerificationDepth: Sendable, Hashable {
    /// Every file against its recorded size and SHA-256, stray and half-written files; for a
    /// catalog library also every page of its index against its checksum, every record of its
    /// journal against its own, and the journal proved to be the one the index was built from.
    case standard
    /// As ``standard``, and a catalog library's index rebuilt from its journal in memory and
    /// compared with it fact by fact (albums, their assets and order), with SQLite's full
    /// integrity check: minutes for a million photos. Other libraries check as ``standard``.
    case thorough
}
