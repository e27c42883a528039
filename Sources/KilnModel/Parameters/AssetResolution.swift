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
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            context.missingInput("file not found: \(written) (looked for \(url.path))", at: node, path: path)
            return nil
        }
        guard !isDirectory.boolValue else {
            context.error("'\(written)' is a directory, expected a file", at: node, path: path)
            return nil
        }
        if let problem = context.pathRules.inputProblem(url) {
            context.error("refused to read '\(written)': \(problem)", at: node, path: path)
            return nil
        }
        context.inputFiles.append(url)
        return url
    }
}
