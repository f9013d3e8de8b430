import AlbumKit
import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// SIGINT (Ctrl-C) and SIGTERM during a save: the first one asks the save to stop (the files being
/// committed finish, the rest are not saved) and ends the progress line; a second one exits at once
/// (the library stays consistent: what was not committed is rolled back when it is next opened).
enum Interruption {
    private static let sources = Locked<[any DispatchSourceSignal]>([])
    private static let interrupted = Locked(false)

    static var happened: Bool { interrupted.withLock { $0 } }

    /// Calls `onFirst` on the first SIGINT or SIGTERM.
    static func install(_ onFirst: @escaping @Sendable () -> Void) {
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler {
                let first = interrupted.withLock { already in
                    defer { already = true }
                    return !already
                }
                guard first else { _exit(130) }
                ProgressLine.shared.stop()
                Output.err(
                    signalNumber == SIGINT
                        ? "album: interrupted; finishing the files being saved (press Ctrl-C again to quit now)"
                        : "album: asked to stop (SIGTERM); finishing the files being saved (a second signal quits now)")
                onFirst()
            }
            source.resume()
            sources.withLock { $0.append(source) }
        }
    }
}
