import Foundation

/// What ``PhotoLibrary/exportAlbum(titled:to:)`` wrote.
///
/// ```swift
/// let report = try await library.exportAlbum(titled: "Trips", to: URL(fileURLWithPath: "/tmp/Trips"))
/// for file in report.exported { print(file.name) }
/// ```
public struct ExportReport: Sendable, Hashable {
    /// One file written.
    public struct File: Sendable, Hashable {
        /// The asset it came from.
        public let assetID: String
        /// The name it was written under in the folder (`IMG_1.jpg`, or `IMG_1 2.jpg` after a collision).
        public let name: String
        /// The asset's original file name.
        public let originalFilename: String?
        /// Its size in bytes.
        public let byteSize: Int64
        /// The modification time it was given (the capture date), when the asset has one.
        public let modificationDate: Date?
        /// The names its companions (sidecars, the raw of a pair) have beside it, written now or
        /// already there.
        public var companions: [String] = []
    }

    /// One asset that could not be exported (the others were).
    public struct Failure: Sendable, Hashable {
        /// The asset.
        public let assetID: String
        /// Why.
        public let code: AlbumError.Code
        /// A sentence naming the file and the cause.
        public let message: String
    }

    /// The folder written to.
    public let directory: URL
    /// The files written, in album order.
    public let exported: [File]
    /// The assets whose identical copy (same size and SHA-256) was already in the folder, from an
    /// earlier export: not written again. Each names the file found.
    ///
    /// ```swift
    /// print("\(report.exported.count) exported, \(report.alreadyThere.count) already there")
    /// ```
    public let alreadyThere: [File]
    /// The assets that were not written.
    public let failures: [Failure]
}
