#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import AlbumKitMedia

/// libFuzzer's entry point: inspect the bytes; any crash, trap, sanitizer report or timeout is a bug.
///
/// Built by `Scripts/media/fuzz.sh` with `-sanitize=fuzzer,address` and `-DALBUMKIT_FUZZING`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMediaInspector(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    do {
        let metadata = try MediaInspector().inspect(BufferByteSource(bytes: bytes))
        // Displayed sizes and orientations are always sane when present.
        if let orientation = metadata.orientation, !(1...8).contains(orientation) {
            fatalError("orientation \(orientation)")
        }
    } catch {
        if error.reason.isEmpty { fatalError("an error without a reason") }
    }
    return 0
}

#if ALBUMKIT_FUZZING
    /// libFuzzer's driver, called from our own `main` (SwiftPM gives every executable a `main`).
    @_silgen_name("LLVMFuzzerRunDriver")
    func runFuzzerDriver(
        _ argc: UnsafeMutablePointer<CInt>,
        _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
        _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
    ) -> CInt
#endif

/// The fuzzer's entry point; without `-DALBUMKIT_FUZZING` it only explains how to fuzz.
@main enum AlbumKitMediaFuzz {
    static func main() {
        #if ALBUMKIT_FUZZING
            var argc = CommandLine.argc
            var argv = CommandLine.unsafeArgv
            exit(runFuzzerDriver(&argc, &argv, fuzzMediaInspector))
        #else
            print("Build and run the fuzzer with Scripts/media/fuzz.sh [seconds].")
        #endif
    }
}
