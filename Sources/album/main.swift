import AlbumKit
import Foundation

/// `album`: save photos and videos into named albums from the command line.
// The libraries read no environment: the settings this command honours are handed over first.
LibraryConfiguration.use(ProgramEnvironment.configuration)
// A large batch must not fail on a low default open-file limit.
FileSystem.raiseOpenFileLimit()
// The arguments' bytes as given: file names need not be valid UTF-8.
let rawArguments = (0..<max(0, Int(CommandLine.argc) - 1)).map { offset -> [UInt8] in
    guard let argument = CommandLine.unsafeArgv[offset + 1] else { return [] }
    return Array(UnsafeRawBufferPointer(start: argument, count: strlen(argument)))
}
switch AlbumCommand.invocation(rawArguments) {
case .finished(let status):
    exit(status)
case .command(let command, let arguments):
    // Too few descriptors for libdispatch beside the command's own files: refused before any work.
    if let status = AlbumCommand.openFileLimitRefusal(command.name, arguments) { exit(status) }
    // A save holds two chunks of staged files open. Growing the descriptor table for them now, while
    // the process has one thread, waits for nothing; mid-batch it stalled every thread (FileSystem).
    if [.save, .import].contains(command.name) { FileSystem.reserveDescriptorTable(for: 1024) }
    let status = await AlbumCommand.run(command, arguments)
    // A save is acknowledged at its journal's flush; its index commit ends before the process does.
    await Blocking.acknowledgedWorkFinished()
    exit(status)
}
