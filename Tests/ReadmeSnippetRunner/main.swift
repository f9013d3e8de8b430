import Foundation

// readme-snippet-runner N PHOTO [FILE...]: runs README's N-th Swift example (from 1) in the current
// directory, with `photoURL` = PHOTO, `urls` = the FILEs and `jpegBytes` = PHOTO's bytes, the way a
// script would: a synchronous example on the main thread, an `async` one in a task. Exits 0 when the
// example returns, 1 when it throws. Without arguments it prints how many examples there are.
let arguments = CommandLine.arguments
guard arguments.count >= 3, let number = Int(arguments[1]), (1...readmeSnippets.count).contains(number) else {
    print("snippets: \(readmeSnippets.count)")
    exit(arguments.count == 1 ? 0 : 2)
}
let photoURL = URL(fileURLWithPath: arguments[2])
let urls = arguments.dropFirst(3).map { URL(fileURLWithPath: $0) }
let bytes = (try? Data(contentsOf: photoURL)) ?? Data()

func fail(_ error: any Error) -> Never {
    FileHandle.standardError.write(Data("snippet \(number) threw: \(error)\n".utf8))
    exit(1)
}

switch readmeSnippets[number - 1] {
case .sync(let run):
    do { try run(photoURL, urls, bytes) } catch { fail(error) }
    exit(0)
case .async(let run):
    Task {
        do { try await run(photoURL, urls, bytes) } catch { fail(error) }
        exit(0)
    }
    dispatchMain()
}
