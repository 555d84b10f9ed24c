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
    /// The fixture folder, as a standardized file URL.
    public let directory: URL

    /// Makes access to the fixtures in `directory`.
    public init(directory: URL) {
        self.directory = directory.standardizedFileURL
    }

    private var folder: FixtureFolder { FixtureFolder(directory) }

    /// The URL of a fixture, by `FixtureFolder`'s rule: a plain relative name whose real path (links
    /// resolved) stays inside the folder. A file that does not exist yet gets the URL it would have.
    public func url(named name: String) throws(TestFixtureError) -> URL {
        switch folder.lookUp(name) {
        case .file(let url): return url
        case .notFound: return directory.appendingPathComponent(name)
        case .outside: throw .outsideFolder(name: name, directory: directory.path)
        }
    }

    /// Whether a fixture of this name exists inside the folder.
    public func exists(named name: String) -> Bool {
        folder.file(named: name) != nil
    }

    /// The bytes of a fixture; throws when it is missing (with the nearest names) or outside the folder.
    public func data(named name: String) throws(TestFixtureError) -> Data {
        switch folder.lookUp(name) {
        case .file(let url):
            if let data = FileManager.default.contents(atPath: url.path) { return data }
        case .notFound:
            break
        case .outside:
            throw .outsideFolder(name: name, directory: directory.path)
        }
        throw .notFound(
            name: name,
            directory: directory.path,
            suggestions: Suggestions.nearest(to: name, in: fileNames)
        )
    }

    /// The text of a fixture, decoded as UTF-8.
    public func string(named name: String) throws(TestFixtureError) -> String {
        String(decoding: try data(named: name), as: UTF8.self)
    }

    /// A fixture parsed as JSON; throws ``TestFixtureError/notJSON(name:reason:)`` when it does not parse.
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
    public var fileNames: [String] { folder.fileNames }

    /// The MIME type for a file extension; `application/octet-stream` when unknown.
    public static func mimeType(forPathExtension pathExtension: String) -> String {
        MIMEType.forFile(named: "file." + pathExtension)
    }
}

/// Why a fixture could not be read.
public enum TestFixtureError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No fixture has this name; `suggestions` are the nearest file names in the folder.
    case notFound(name: String, directory: String, suggestions: [String])
    /// The name leads outside the folder (`..`, an absolute path, or a link pointing out).
    case outsideFolder(name: String, directory: String)
    /// The fixture is not valid JSON; `reason` says why.
    case notJSON(name: String, reason: String)

    public var description: String {
        switch self {
        case .notFound(let name, let directory, let suggestions):
            FixtureFolder.notFoundMessage(
                name: name,
                folder: URL(fileURLWithPath: directory).lastPathComponent,
                suggestions: suggestions
            )
        case .outsideFolder(let name, let directory):
            FixtureFolder.outsideMessage(name: name, folder: URL(fileURLWithPath: directory).lastPathComponent)
        case .notJSON(let name, let reason):
            "Fixture '\(name)' is not valid JSON: \(reason)"
        }
    }
}
