/// MIME types by file extension: what the stub server serves a fixture as, and what `TestFixture` reports.
package enum MIMEType {
    package static let json = "application/json"
    package static let text = "text/plain"
    package static let unknown = "application/octet-stream"

    package static let byExtension: [String: String] = [
        "json": json, "txt": text, "text": text,
        "html": "text/html", "htm": "text/html", "css": "text/css", "csv": "text/csv",
        "xml": "application/xml", "js": "text/javascript", "yml": "application/yaml", "yaml": "application/yaml",
        "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif", "svg": "image/svg+xml",
        "webp": "image/webp", "ico": "image/x-icon", "pdf": "application/pdf", "zip": "application/zip",
    ]

    /// The type for a file name; `application/octet-stream` when the extension is unknown or missing.
    package static func forFile(named name: String) -> String {
        let base = name.split(ascii: UInt8(ascii: "/")).last.map(String.init) ?? name
        guard let dot = base.utf8.lastIndex(of: UInt8(ascii: ".")), dot != base.startIndex else { return unknown }
        return byExtension[base[base.index(after: dot)...].lowercased()] ?? unknown
    }
}
