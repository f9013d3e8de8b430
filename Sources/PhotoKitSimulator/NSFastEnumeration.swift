#if !canImport(ObjectiveC)
    import Foundation

    /// Stand-in for Foundation's `NSFastEnumeration`, which swift-corelibs-foundation lacks.
    ///
    /// Photos takes `any NSFastEnumeration` for collections of assets and collections.
    /// Pass `[object] as NSArray`, `[object] as NSFastEnumeration` or a `PHFetchResult`,
    /// as you would on Apple platforms (there, a plain Swift array needs the cast; here it
    /// compiles without one, so keep the cast in portable code).
    public protocol NSFastEnumeration {}

    extension NSArray: NSFastEnumeration {}
    extension NSOrderedSet: NSFastEnumeration {}
    extension NSSet: NSFastEnumeration {}
    extension Array: NSFastEnumeration {}

    /// The simulator's way to read the elements of an `NSFastEnumeration`.
    protocol FastEnumerationElements {
        /// The elements, in enumeration order.
        var fastEnumerationElements: [Any] { get }
    }

    extension NSArray: FastEnumerationElements {
        var fastEnumerationElements: [Any] { (0..<count).map { object(at: $0) } }
    }

    extension NSOrderedSet: FastEnumerationElements {
        var fastEnumerationElements: [Any] { (0..<count).map { object(at: $0) } }
    }

    extension NSSet: FastEnumerationElements {
        var fastEnumerationElements: [Any] { allObjects }
    }

    extension Array: FastEnumerationElements {
        var fastEnumerationElements: [Any] { map { $0 } }
    }

    /// The elements of `enumeration`; traps for an enumeration type the simulator cannot read.
    func elements(of enumeration: any NSFastEnumeration) -> [Any] {
        guard let readable = enumeration as? any FastEnumerationElements else {
            preconditionFailure("PhotoKitSimulator cannot enumerate \(type(of: enumeration))")
        }
        return readable.fastEnumerationElements
    }
#endif
