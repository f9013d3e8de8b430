#if !canImport(ObjectiveC)
    /// A test action scheduled at a moment of a future change block.
    struct ScriptedHook: Sendable {
        /// When the action runs.
        enum Moment: Sendable, Equatable {
            /// On the change queue, before change block `n` runs.
            case beforeChangeBlock(Int)
            /// On the change queue, after change block `n` returned and before it commits.
            case beforeCommit(Int)
            /// Before the next change block commits, whichever it is.
            case beforeNextCommit
        }

        let moment: Moment
        let action: @Sendable (PhotoKitSimulation) -> Void
    }
#endif
