import CLoading
import Foundation
import Synchronization
import Testing

#if os(Linux)
    /// Attempts made by the load function of ``LibraryLoadingTests``.
    private let attempts = Atomic<Int>(0)

    /// How SQLite, libcrypto, libpq and libcurl are loaded at run time (`CLoading`): a failed
    /// attempt is made again by the next call (a process that once ran out of file descriptors
    /// must still open libraries later), a success is final, and a reason names what to install.
    @Suite struct LibraryLoadingTests {
        @Test func aFailedAttemptIsMadeAgainAndASuccessIsFinal() {
            var library = albumkit_library()
            pthread_mutex_init(&library.lock, nil)
            defer { pthread_mutex_destroy(&library.lock) }
            let load: @convention(c) (UnsafeMutablePointer<CChar>?, Int) -> Int32 = { error, size in
                guard attempts.add(1, ordering: .sequentiallyConsistent).newValue > 1 else {
                    _ = strncpy(error!, "no descriptor left", size - 1)
                    return -1
                }
                return 0
            }
            #expect(albumkit_library_load(&library, load) == -1)
            #expect(String(cString: albumkit_library_error(&library)) == "no descriptor left")
            #expect(albumkit_library_load(&library, load) == 0)
            #expect(albumkit_library_load(&library, load) == 0)
            #expect(attempts.load(ordering: .sequentiallyConsistent) == 2)
        }

        @Test func theFirstCandidateThatBindsEverySymbolIsLoaded() throws {
            func load(_ names: [String], _ symbol: String) -> (Bool, String) {
                var slot: UnsafeMutableRawPointer?
                var error = [CChar](repeating: 0, count: 512)
                let handle = names.withCStrings { cNames in
                    symbol.withCString { cSymbol in
                        withUnsafeMutablePointer(to: &slot) { slotPointer in
                            var binding = albumkit_symbol(name: cSymbol, slot: slotPointer)
                            return albumkit_load_library(
                                cNames, names.count, &binding, 1, "libexample", "libexample1", &error, error.count)
                        }
                    }
                }
                return (
                    handle != nil && slot != nil,
                    String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                )
            }
            let missing = "libalbumkit-no-such-library.so.7"
            #expect(load([missing, "libm.so.6"], "cos").0)
            let notInstalled = load([missing], "cos")
            #expect(!notInstalled.0)
            #expect(notInstalled.1.contains(missing) && notInstalled.1.hasSuffix("install libexample1"))
            let lacking = load(["libm.so.6", missing], "albumkit_no_such_symbol")
            #expect(!lacking.0)
            #expect(lacking.1.hasPrefix("libexample lacks albumkit_no_such_symbol"), "\(lacking.1)")
        }
    }

    extension Array where Element == String {
        /// The strings as C strings, for the duration of `body`.
        fileprivate func withCStrings<T>(_ body: (UnsafePointer<UnsafePointer<CChar>?>) -> T) -> T {
            var pointers = map { UnsafePointer(strdup($0)) }
            defer { pointers.forEach { free(UnsafeMutablePointer(mutating: $0)) } }
            return pointers.withUnsafeMutableBufferPointer { body($0.baseAddress!) }
        }
    }
#endif
