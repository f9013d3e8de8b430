#if !canImport(ObjectiveC)
    /// A change block handed to the change queue.
    // @unchecked Sendable: Photos' change block is a plain, non-Sendable `() -> Void` that
    // Photos runs on its own queue. The caller hands the block over and the simulator calls
    // it exactly once, on the change queue, with no concurrent access to the box: the same
    // transfer of ownership Photos relies on. The box is never shared otherwise.
    struct ChangeBlock: @unchecked Sendable {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }
#endif
