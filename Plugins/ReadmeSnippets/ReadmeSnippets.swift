import PackagePlugin

/// Generates `Snippets.swift` from the ```swift blocks of README.md, so README's examples are
/// compiled (and, by `ReadmeTests`, run) from README's own text on every build.
@main struct ReadmeSnippets: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let readme = context.package.directoryURL.appending(path: "README.md")
        let output = context.pluginWorkDirectoryURL.appending(path: "Snippets.swift")
        return [
            .buildCommand(
                displayName: "Extracting README's Swift examples",
                executable: try context.tool(named: "SnippetExtractor").url,
                arguments: [readme.path(percentEncoded: false), output.path(percentEncoded: false)],
                inputFiles: [readme],
                outputFiles: [output]
            )
        ]
    }
}
