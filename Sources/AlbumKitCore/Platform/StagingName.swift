import Foundation

/// The name of a hidden entry a process stages before it becomes visible (a file being written, an
/// album folder being made, a file being replaced): `.<owner token>.<uuid>.<kind>`.
///
/// The one place that makes such names and reads their owner back, for every backend.
///
/// ```swift
/// let name = StagingName(kind: "partial")          // .p4242-9f2c41d07a1b33e8.<uuid>.partial
/// StagingName(parsing: name.fileName)?.owner       // "p4242-9f2c41d07a1b33e8"
/// ```
package struct StagingName: Sendable, Hashable, CustomStringConvertible {
    /// The token of the process that made the entry (``ProcessOwner/token``).
    package let owner: String
    /// A fresh identifier, lowercase UUID.
    package let id: String
    /// What the entry is: `partial`, `album`, `file`, `deleted`, …
    package let kind: String

    /// A new name owned by this process.
    package init(kind: String, id: String = RandomID.make()) {
        self.owner = ProcessOwner.token
        self.id = id
        self.kind = kind
    }

    /// Reads a name made by ``init(kind:id:)``; `nil` for anything else.
    package init?(parsing name: String) {
        guard name.hasPrefix(".") else { return nil }
        let parts = name.dropFirst().split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, ProcessOwner.isWellFormed(String(parts[0])), !parts[1].isEmpty, !parts[2].isEmpty
        else { return nil }
        owner = String(parts[0])
        id = String(parts[1])
        kind = String(parts[2])
    }

    /// The file name: `.<owner>.<id>.<kind>`.
    package var fileName: String { ".\(owner).\(id).\(kind)" }
    package var description: String { fileName }
}
