internal import CLibXML2

/// Parses an XML document from memory with libxml2, safe for untrusted files: no network
/// (`XML_PARSE_NONET`), no external subset or DTD loading, and no entities at all — a declared
/// entity stops the parse with an error, so neither external entities (XXE) nor nested
/// expansions (billion laughs) can be used; entity substitution (`XML_PARSE_NOENT`) is never on.
/// Errors go to a callback on this parse's own context (never libxml2's global handlers), and
/// the first one is reported with its line and column.
enum SafeXMLParser {
    static func parse(_ bytes: [UInt8], file: String) throws(SymbolFileError) -> XMLElementNode {
        guard bytes.count <= SymbolLimits.fileBytes else {
            throw SymbolFileError(
                file: file,
                message:
                    "the file is \(bytes.count) bytes, more than the \(SymbolLimits.fileBytes) a symbol may have"
            )
        }
        _ = initialisation
        guard let context = xmlNewParserCtxt() else {
            throw SymbolFileError(file: file, message: "libxml2 could not make a parser (out of memory)")
        }
        defer { xmlFreeParserCtxt(context) }
        let problems = ParseProblems()
        let retained = Unmanaged.passRetained(problems)
        defer { retained.release() }
        context.pointee._private = retained.toOpaque()
        if let sax = context.pointee.sax {
            sax.pointee.serror = { userData, error in
                guard let userData, let error else { return }
                ParseProblems.of(userData)?.record(error.pointee)
            }
            sax.pointee.entityDecl = { userData, name, _, _, _, _ in
                guard let userData else { return }
                let entity = name.map { String(cString: $0) } ?? ""
                ParseProblems.of(userData)?.refuseEntity(
                    named: entity, line: Int(xmlSAX2GetLineNumber(userData)),
                    column: Int(xmlSAX2GetColumnNumber(userData)))
                xmlStopParser(userData.assumingMemoryBound(to: xmlParserCtxt.self))
            }
            sax.pointee.resolveEntity = { _, _, _ in nil }
            sax.pointee.externalSubset = nil
        }
        let options = Int32(
            XML_PARSE_NONET.rawValue | XML_PARSE_BIG_LINES.rawValue | XML_PARSE_NOERROR.rawValue
                | XML_PARSE_NOWARNING.rawValue)
        let document = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) {
                xmlCtxtReadMemory(context, $0.baseAddress, Int32(buffer.count), file, nil, options)
            }
        }
        defer { if let document { xmlFreeDoc(document) } }
        if let refused = problems.refusedEntity {
            throw SymbolFileError(
                file: file, line: refused.line, column: refused.column,
                message: "the entity '\(refused.name)' is declared: symbol files may not declare entities")
        }
        if let first = problems.first {
            throw SymbolFileError(file: file, line: first.line, column: first.column, message: first.message)
        }
        guard let document, context.pointee.wellFormed != 0, let root = xmlDocGetRootElement(document) else {
            throw SymbolFileError(file: file, message: "not a well-formed XML document")
        }
        var order = 0
        return try copy(root, depth: 0, order: &order, file: file)
    }

    /// libxml2's global tables must be set up once before threads parse at the same time.
    private static let initialisation: Void = xmlInitParser()

    private static func copy(_ node: xmlNodePtr, depth: Int, order: inout Int, file: String)
        throws(SymbolFileError) -> XMLElementNode
    {
        let myOrder = order
        order += 1
        let line = Int(xmlGetLineNo(node))
        guard order <= SymbolLimits.elements else {
            throw SymbolFileError(
                file: file, line: line,
                message: "more than \(SymbolLimits.elements) elements: too large for a symbol")
        }
        guard depth <= SymbolLimits.depth else {
            throw SymbolFileError(
                file: file, line: line, message: "elements nested more than \(SymbolLimits.depth) deep")
        }
        var attributes: [String: String] = [:]
        var attribute = node.pointee.properties
        while let current = attribute {
            if current.pointee.ns == nil, let name = current.pointee.name {
                let value = xmlNodeListGetString(node.pointee.doc, current.pointee.children, 1)
                attributes[String(cString: name)] = value.map { String(cString: $0) } ?? ""
                kiln_xml_free(value)
            }
            attribute = current.pointee.next
        }
        var children: [XMLElementNode] = []
        var child = node.pointee.children
        while let current = child {
            if current.pointee.type == XML_ELEMENT_NODE {
                children.append(try copy(current, depth: depth + 1, order: &order, file: file))
            }
            child = current.pointee.next
        }
        let namespace = node.pointee.ns?.pointee.href.map { String(cString: $0) }
        return XMLElementNode(
            name: node.pointee.name.map { String(cString: $0) } ?? "", namespace: namespace,
            attributes: attributes, children: children, line: line, order: myOrder)
    }
}

/// What went wrong while libxml2 parsed, gathered by its callbacks for the one parse that owns it.
private final class ParseProblems {
    struct Problem {
        let line: Int?
        let column: Int?
        let message: String
    }
    private(set) var first: Problem?
    private(set) var refusedEntity: (name: String, line: Int, column: Int)?

    static func of(_ userData: UnsafeMutableRawPointer) -> ParseProblems? {
        // SAX callbacks receive the parser context itself as their user data.
        let context = userData.assumingMemoryBound(to: xmlParserCtxt.self)
        guard let opaque = context.pointee._private else { return nil }
        return Unmanaged<ParseProblems>.fromOpaque(opaque).takeUnretainedValue()
    }

    func record(_ error: xmlError) {
        guard first == nil, refusedEntity == nil, error.level.rawValue >= XML_ERR_ERROR.rawValue else {
            return
        }
        var message = error.message.map { String(cString: $0) } ?? "malformed XML"
        while message.last?.isWhitespace == true { message.removeLast() }
        message = message.prefix(1).lowercased() + message.dropFirst()
        first = Problem(
            line: error.line > 0 ? Int(error.line) : nil, column: error.int2 > 0 ? Int(error.int2) : nil,
            message: message)
    }

    func refuseEntity(named name: String, line: Int, column: Int) {
        guard refusedEntity == nil else { return }
        refusedEntity = (name, line, column)
    }
}
