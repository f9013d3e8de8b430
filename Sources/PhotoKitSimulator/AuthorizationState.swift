#if !canImport(ObjectiveC)
    /// The app's authorization in the simulated library, and the user's scripted answers.
    ///
    /// The read-write and add-only statuses are stored separately. While the add-only status
    /// was never decided, it follows the read-write status (read-write or limited access
    /// includes adding). A prompt happens only for an undetermined level, once, and stores
    /// the scripted answer.
    struct AuthorizationState: Sendable {
        private var stored: [PHAccessLevel: PHAuthorizationStatus] = [
            .addOnly: .notDetermined, .readWrite: .notDetermined,
        ]
        private var answers: [PHAccessLevel: PHAuthorizationStatus] = [.addOnly: .authorized, .readWrite: .authorized]
        /// The levels the user was prompted for, in order.
        private(set) var prompts: [PHAccessLevel] = []

        /// The status `authorizationStatus(for:)` reports.
        func status(for level: PHAccessLevel) -> PHAuthorizationStatus {
            let own = stored[level] ?? .notDetermined
            guard level == .addOnly, own == .notDetermined else { return own }
            switch stored[.readWrite] ?? .notDetermined {
            case .authorized, .limited: return .authorized
            case .denied: return .denied
            case .restricted: return .restricted
            case .notDetermined: return .notDetermined
            }
        }

        /// Whether nothing was decided for either level (the app never asked).
        var isUndetermined: Bool {
            status(for: .readWrite) == .notDetermined && status(for: .addOnly) == .notDetermined
        }

        /// Sets what the user answers when prompted for `level`.
        mutating func setAnswer(_ status: PHAuthorizationStatus, for level: PHAccessLevel) {
            answers[level] = Self.normalized(status, for: level)
        }

        /// Sets the stored status for `level` without a prompt (the user changed Settings).
        mutating func setStatus(_ status: PHAuthorizationStatus, for level: PHAccessLevel) {
            stored[level] = Self.normalized(status, for: level)
        }

        /// Prompts for `level` when it is undetermined; returns the resulting status.
        mutating func request(_ level: PHAccessLevel) -> PHAuthorizationStatus {
            guard status(for: level) == .notDetermined else { return status(for: level) }
            prompts.append(level)
            stored[level] = answers[level] ?? .authorized
            return status(for: level)
        }

        /// `.limited` exists only for read-write access; for add-only it means `.authorized`.
        private static func normalized(_ status: PHAuthorizationStatus, for level: PHAccessLevel)
            -> PHAuthorizationStatus
        {
            level == .addOnly && status == .limited ? .authorized : status
        }
    }
#endif
