/// One decoded effect stage of a layer, in the order written.
public struct EffectNode: Sendable {
    public let kind: String
    public let content: any EffectContent
    public let path: JSONPath

    public init(kind: String, content: any EffectContent, path: JSONPath) {
        self.kind = kind
        self.content = content
        self.path = path
    }
}
