/// An element of a parsed document, copied out of libxml2's tree so the symbol reader works on
/// plain values: its name, namespace, un-namespaced attributes and child elements. Text,
/// comments and processing instructions are dropped; a symbol draws none of them.
struct XMLElementNode: Sendable {
    let name: String
    /// The namespace URI; nil when the element is in no namespace.
    let namespace: String?
    /// Attributes in no namespace, by name (`xlink:href`, `inkscape:label`… are left out).
    let attributes: [String: String]
    let children: [XMLElementNode]
    /// 1-based line of the start tag as libxml2 recorded it.
    let line: Int
    /// Position among all elements of the document in document order (the root is 0): how the
    /// start tag's exact column is found again in the source when a message needs it.
    let order: Int
}
