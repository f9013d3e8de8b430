import AlbumKit
import Foundation

/// `album`: save photos and videos into named albums from the command line.
let exitCode = await AlbumCommand.run(Array(CommandLine.arguments.dropFirst()))
exit(exitCode)
