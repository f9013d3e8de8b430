#if !canImport(ObjectiveC)
    import Foundation

    /// The abstract base class of change requests.
    ///
    /// Change requests can only be created or used inside a `performChanges` or
    /// `performChangesAndWait` block; anywhere else they trap, as Photos raises an
    /// Objective-C exception. They are not `Sendable`.
    public class PHChangeRequest: NSObject {
        /// The change block this request belongs to.
        let transaction: ChangeTransaction

        init(transaction: ChangeTransaction) {
            self.transaction = transaction
        }

        /// The local identifiers of the Photos objects in `enumeration`; traps for other elements.
        static func localIdentifiers(in enumeration: any NSFastEnumeration, of kind: String) -> [String] {
            elements(of: enumeration).map { element in
                guard let object = element as? PHObject else {
                    preconditionFailure("Invalid \(kind) in change request: \(element) is not a PHObject")
                }
                return object.localIdentifier
            }
        }
    }
#endif
