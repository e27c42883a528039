import Foundation

/// Checks asset paths while decoding, so a missing image is reported with the other job errors
/// instead of failing halfway through a render.
enum AssetResolution {
    static func resolve(_ written: String, node: JSONNode, path: JSONPath, context: DecodeContext) -> URL? {
        guard !written.isEmpty else {
            context.error("file path must not be empty", at: node, path: path)
            return nil
        }
        let url = context.resolvePath(written)
        // The roots first: whether a file outside them exists, or is a directory, is not the
        // job's business, so the answer there must not depend on it.
        if let problem = context.pathRules.placeProblem(url) {
            context.refusedInput("refused to read '\(written)': \(problem)", at: node, path: path)
            return nil
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            context.missingInput(
                "file not found: \(written) (looked for \(url.path))\(workingDirectoryHint(written, context))",
                at: node, path: path)
            return nil
        }
        guard !isDirectory.boolValue else {
            context.error("'\(written)' is a directory, expected a file", at: node, path: path)
            return nil
        }
        if let problem = context.pathRules.inputProblem(url) {
            context.refusedInput("refused to read '\(written)': \(problem)", at: node, path: path)
            return nil
        }
        context.inputFiles.append(url)
        context.recordFrameInput(file: url)
        return url
    }

    /// A relative path that names a file from the working directory, but not from the job's
    /// folder, was most likely written as if paths were relative to where `kiln` runs. Only a
    /// file the job may read is named: a worker's message must not tell a job's author what
    /// exists outside the asset roots.
    static func workingDirectoryHint(_ written: String, _ context: DecodeContext) -> String {
        guard !written.hasPrefix("/") else { return "" }
        let here = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        let fromHere = here.appendingPathComponent(written).standardizedFileURL
        guard fromHere != context.resolvePath(written), context.pathRules.inputProblem(fromHere) == nil,
            FileManager.default.fileExists(atPath: fromHere.path)
        else { return "" }
        let folder = context.baseDirectory.standardizedFileURL.path
        let relative = RelativePath.between(folder, fromHere.path)
        return "; paths are relative to the job file's folder (\(folder)), not to the working directory: "
            + "from the job it is \"\(relative)\""
    }
}

/// The path from one absolute folder to an absolute file, with `..` where needed.
enum RelativePath {
    static func between(_ folder: String, _ file: String) -> String {
        let from = folder.split(separator: "/"), to = file.split(separator: "/")
        var common = 0
        while common < from.count, common < to.count - 1, from[common] == to[common] { common += 1 }
        let up = Array(repeating: "..", count: from.count - common)
        return (up + to[common...].map(String.init)).joined(separator: "/")
    }
}
