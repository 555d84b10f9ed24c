package import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Just enough XML to read and rewrite JUnit reports: elements with attributes and text, read by
/// Foundation's `XMLParser` (no external entities), written indented like ``JUnitReporter``'s output.
package enum XMLTree {
    package struct Element: Sendable, Hashable {
        package enum Child: Sendable, Hashable {
            case element(Element)
            case text(String)
        }

        package var name: String
        package var attributes: [String: String]
        package var children: [Child]

        package init(name: String, attributes: [String: String] = [:], children: [Child] = []) {
            self.name = name
            self.attributes = attributes
            self.children = children
        }

        /// The child elements, in order.
        package var elements: [Element] {
            children.compactMap { if case .element(let element) = $0 { element } else { nil } }
        }
    }

    /// Where and why a document is not well-formed.
    package struct ParseError: Error, Sendable, Hashable {
        package var line: Int
        package var column: Int
        package var reason: String
    }

    /// How deep elements may nest (a JUnit report needs five levels): the tree is built, compared and
    /// written recursively, so a deeper document is an error rather than a stack overflow.
    package static let depthLimit = 256

    /// The root element of `data`.
    package static func parse(_ data: Data) throws(ParseError) -> Element {
        let parser = XMLParser(data: data)
        parser.shouldResolveExternalEntities = false
        let builder = Builder()
        parser.delegate = builder
        let parsed = parser.parse()
        // swift-corelibs' parse() can return true after an error it recovered from; the first error the
        // delegate saw is the one to show (later ones follow from it).
        if let tooDeep = builder.tooDeep {
            throw ParseError(
                line: max(1, tooDeep.line),
                column: max(1, tooDeep.column),
                reason: "elements nest deeper than \(depthLimit) levels"
            )
        }
        if let error = builder.firstError {
            throw ParseError(
                line: max(1, error.line),
                column: max(1, error.column),
                reason: Self.reason(error.code, data: data)
            )
        }
        if !parsed {
            let code = (parser.parserError as NSError?)?.code
            throw ParseError(
                line: max(1, parser.lineNumber),
                column: max(1, parser.columnNumber),
                reason: Self.reason(code, data: data)
            )
        }
        guard let root = builder.root else { throw ParseError(line: 1, column: 1, reason: reason(4, data: data)) }
        return root
    }

    /// Whether `data` holds anything but whitespace (libxml2 calls a document without an element
    /// "empty" even when it holds text).
    private static func hasContent(_ data: Data) -> Bool {
        data.contains { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09) }
    }

    /// `XMLParser`'s error codes (libxml2's `xmlParserErrors`, which Foundation passes on) in words, for
    /// the common ones.
    private static func reason(_ code: Int?, data: Data) -> String {
        switch code {
        case 4? where hasContent(data): "it holds text but no XML element; is this a JUnit report?"
        case 4?: "it is empty"
        case 3?, 5?: "the document does not end with its root element's end tag"
        case 6?, 7?, 8?, 9?, 10?: "it holds a character XML does not allow"
        case 23?, 24?, 26?, 27?: "an '&' does not start a known entity"
        case 38?, 39?, 40?, 41?, 42?: "an attribute is not written name=\"value\""
        case 65?, 73?, 74?, 77?: "a tag is not closed"
        case 76?: "an end tag does not match its start tag"
        case let code?: "XMLParser error \(code)"
        case nil: "XMLParser could not read it"
        }
    }

    /// `element` as indented XML (two spaces a level, `depth` levels in): text-only elements on one
    /// line, whitespace between elements dropped, attributes in `order` first, then by name.
    package static func render(_ element: Element, depth: Int, attributeOrder order: [String]) -> String {
        let indent = String(repeating: "  ", count: depth)
        let known = order.filter { element.attributes[$0] != nil }
        let rest = element.attributes.keys.filter { !order.contains($0) }.sorted()
        let attributes = (known + rest).map {
            #" \#($0)="\#(JUnitReporter.escape(element.attributes[$0] ?? "", attribute: true))""#
        }
        let open = "<\(element.name)\(attributes.joined())"
        if element.children.isEmpty { return indent + open + "/>\n" }
        guard element.children.contains(where: { if case .element = $0 { true } else { false } }) else {
            let text = element.children.map { if case .text(let text) = $0 { text } else { "" } }.joined()
            return indent + open + ">" + JUnitReporter.escape(text) + "</\(element.name)>\n"
        }
        var out = indent + open + ">\n"
        for child in element.children {
            switch child {
            case .element(let child): out += render(child, depth: depth + 1, attributeOrder: order)
            case .text(let text):
                let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
                if !trimmed.isEmpty { out += indent + "  " + JUnitReporter.escape(trimmed) + "\n" }
            }
        }
        return out + indent + "</\(element.name)>\n"
    }

    /// Builds the tree from the parser's callbacks.
    private final class Builder: NSObject, XMLParserDelegate {
        var root: Element?
        private var open: [Element] = []
        /// Text read since the last tag, appended in place: XMLParser hands long text over in pieces, and
        /// joining each piece to a copy of the text so far was quadratic.
        private var text = ""
        /// Where an element went deeper than ``XMLTree/depthLimit``; parsing stopped there.
        var tooDeep: (line: Int, column: Int)?
        /// The parser's first error and where it was.
        var firstError: (code: Int, line: Int, column: Int)?

        func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
            if firstError == nil { firstError = ((parseError as NSError).code, parser.lineNumber, parser.columnNumber) }
        }

        func parser(
            _ parser: XMLParser,
            didStartElement elementName: String,
            namespaceURI: String?,
            qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            guard tooDeep == nil else { return }
            guard open.count < XMLTree.depthLimit else {
                tooDeep = (parser.lineNumber, parser.columnNumber)
                parser.abortParsing()
                return
            }
            flushText()
            open.append(Element(name: elementName, attributes: attributes))
        }

        func parser(
            _ parser: XMLParser,
            didEndElement elementName: String,
            namespaceURI: String?,
            qualifiedName: String?
        ) {
            guard tooDeep == nil else { return }
            flushText()
            guard let element = open.popLast() else { return }
            if open.isEmpty {
                root = element
            } else {
                open[open.count - 1].children.append(.element(element))
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            append(string)
        }

        func parser(_ parser: XMLParser, foundCDATA block: Data) {
            append(String(decoding: block, as: UTF8.self))
        }

        private func append(_ piece: String) {
            guard !open.isEmpty, tooDeep == nil else { return }
            text += piece
        }

        /// The text read since the last tag, as one child of the innermost open element.
        private func flushText() {
            guard !text.isEmpty else { return }
            if !open.isEmpty { open[open.count - 1].children.append(.text(text)) }
            text = ""
        }
    }
}
