import Diagnostics
public import Foundation

/// Read access to a fixture folder (RKTestFixture): data, text, parsed JSON, MIME type by extension.
///
/// ```swift
/// let fixtures = TestFixture(directory: URL(fileURLWithPath: "Fixtures"))
/// let article = try fixtures.json(named: "article.json")
/// fixtures.mimeType(named: "503.html")   // "text/html"
/// ```
public struct TestFixture: Sendable {
    public let directory: URL

    public init(directory: URL) {
        self.directory = directory.standardizedFileURL
    }

    /// The URL of a fixture; it must stay inside the folder.
    public func url(named name: String) throws(TestFixtureError) -> URL {
        let url = directory.appendingPathComponent(name).standardizedFileURL
        guard url.path.hasPrefix(directory.path + "/") else { throw .outsideFolder(name: name) }
        return url
    }

    public func exists(named name: String) -> Bool {
        guard let url = try? url(named: name) else { return false }
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && !isDirectory.boolValue
    }

    public func data(named name: String) throws(TestFixtureError) -> Data {
        let url = try url(named: name)
        guard let data = FileManager.default.contents(atPath: url.path), exists(named: name) else {
            throw .notFound(name: name, directory: directory.path, suggestions: nearbyNames(to: name))
        }
        return data
    }

    public func string(named name: String) throws(TestFixtureError) -> String {
        String(decoding: try data(named: name), as: UTF8.self)
    }

    public func json(named name: String) throws(TestFixtureError) -> JSONValue {
        let data = try data(named: name)
        do {
            return try JSONValue(parsing: data)
        } catch {
            throw .notJSON(name: name, reason: "\(error)")
        }
    }

    /// The MIME type of a fixture, by its extension.
    public func mimeType(named name: String) -> String {
        MIMEType.forFile(named: name)
    }

    /// Every file name in the folder (recursively, relative), sorted.
    public var fileNames: [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: directory.path) else { return [] }
        var names: [String] = []
        while let name = enumerator.nextObject() as? String {
            if exists(named: name) { names.append(name) }
        }
        return names.sorted()
    }

    private func nearbyNames(to name: String) -> [String] {
        Suggestions.nearest(to: name, in: fileNames)
    }

    /// The MIME type for a file extension; `application/octet-stream` when unknown.
    public static func mimeType(forPathExtension pathExtension: String) -> String {
        MIMEType.forFile(named: "file." + pathExtension)
    }
}

/// Why a fixture could not be read.
public enum TestFixtureError: Error, Sendable, Hashable, CustomStringConvertible {
    case notFound(name: String, directory: String, suggestions: [String])
    case outsideFolder(name: String)
    case notJSON(name: String, reason: String)

    public var description: String {
        switch self {
        case .notFound(let name, let directory, let suggestions):
            "Fixture '\(name)' does not exist in '\(directory)'."
                + (suggestions.isEmpty
                    ? "" : " Did you mean " + suggestions.map { "'\($0)'" }.joined(separator: " or ") + "?")
        case .outsideFolder(let name):
            "Fixture '\(name)' is outside the fixture folder."
        case .notJSON(let name, let reason):
            "Fixture '\(name)' is not valid JSON: \(reason)"
        }
    }
}
