import Foundation
import Testing

extension FullStack {
    /// The Swift of README.md and of every docs/*.md page is compiled code. Every ```swift block must be one
    /// of: a region of a test file between `// README: begin NAME` and `// README: end NAME` (indented as it
    /// may be there, `MyApp` named `ReadmeApp`, and the block's imports imported by that file — `import
    /// MyApp` is the app's own module there); the example project's `main.swift` (`MyApp` named
    /// `LibraryLoans`); or a whole manifest (`// swift-tools-version` first), whose tools version, path
    /// dependency and products must be this package's. A new block without a compiled copy fails here.
    @Suite struct ReadmeSnippetTests {
        static let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

        /// A marked region of a test file: its lines (indentation removed) and the file's imports.
        struct Region {
            let file: String
            let name: String
            let text: String
            let imports: Set<String>
        }

        /// The pages of docs/, by their path from the package's root (`docs/steps.md`), in name order.
        static func docsPages() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)
                .filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
        }

        /// A document's Swift blocks, in order.
        static func swiftBlocks(of text: String) -> [String] {
            var blocks: [String] = []
            var current: [Substring]?
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                if current == nil, line == "```swift" {
                    current = []
                } else if current != nil, line == "```" {
                    blocks.append((current ?? []).joined(separator: "\n"))
                    current = nil
                } else {
                    current?.append(line)
                }
            }
            return blocks
        }

        static func regions() throws -> [Region] {
            let tests = root.appendingPathComponent("Tests")
            guard let files = FileManager.default.enumerator(at: tests, includingPropertiesForKeys: nil) else {
                return []
            }
            var regions: [Region] = []
            for case let url as URL in files where url.pathExtension == "swift" {
                let text = try String(contentsOf: url, encoding: .utf8)
                guard text.contains("// README: begin ") else { continue }
                let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
                let imports = Set(
                    lines.compactMap { line -> String? in
                        let words = line.split(separator: " ")
                        guard let index = words.firstIndex(of: "import"), index + 1 < words.count else { return nil }
                        return String(words[index + 1])
                    }
                )
                var name: String?
                var body: [Substring] = []
                var indent = 0
                for line in lines {
                    let trimmed = line.drop { $0 == " " }
                    if trimmed.hasPrefix("// README: begin ") {
                        name = String(trimmed.dropFirst("// README: begin ".count))
                        indent = line.count - trimmed.count
                        body = []
                    } else if trimmed.hasPrefix("// README: end "), let open = name {
                        let text = body.map { $0.count >= indent ? $0.dropFirst(indent) : $0.drop { $0 == " " } }
                            .joined(separator: "\n").replacingOccurrences(of: "ReadmeApp", with: "MyApp")
                        regions.append(Region(file: url.lastPathComponent, name: open, text: text, imports: imports))
                        name = nil
                    } else if name != nil {
                        body.append(line)
                    }
                }
            }
            return regions
        }

        /// The block's leading imports and the code after them.
        static func split(_ block: String) -> (imports: [String], code: String) {
            var lines = block.split(separator: "\n", omittingEmptySubsequences: false)[...]
            var imports: [String] = []
            while let first = lines.first, first.hasPrefix("import ") {
                imports.append(String(first.dropFirst("import ".count).split(separator: " ").first ?? ""))
                lines = lines.dropFirst()
            }
            if !imports.isEmpty, lines.first == "" { lines = lines.dropFirst() }
            return (imports, lines.joined(separator: "\n"))
        }

        /// The Swift blocks of the document at `path` that have no compiled copy (an empty list when all
        /// have one); the number of blocks it has.
        static func uncheckedBlocks(of path: String, regions: [Region]) throws -> (unchecked: [String], blocks: Int) {
            let text = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
            let blocks = swiftBlocks(of: text)
            let exampleMain = try String(
                contentsOf: root.appendingPathComponent("Examples/LibraryLoans/Sources/library-loans/main.swift"),
                encoding: .utf8
            )
            let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
            var unchecked: [String] = []
            for block in blocks {
                if block.hasPrefix("// swift-tools-version") {
                    // A whole manifest: this package's tools version, this package by path (named, so that
                    // it works whatever its folder is called), no placeholder, and only this package's
                    // products.
                    let toolsVersion = manifest.split(separator: "\n").first.map(String.init) ?? ""
                    #expect(block.hasPrefix(toolsVersion + "\n"), "\(path)'s manifest is not '\(toolsVersion)'")
                    #expect(block.contains(".package(name: \"scenario-run\", path: \""), "\(path)'s manifest")
                    #expect(!block.contains("url:") && !block.contains("…"), "\(path)'s manifest has a placeholder")
                    let products = block.components(separatedBy: ".product(name: \"").dropFirst()
                        .compactMap { $0.split(separator: "\"").first.map(String.init) }
                    #expect(!products.isEmpty)
                    for product in products {
                        let declared = manifest.contains(".library(name: \"\(product)\"")
                        #expect(declared, "\(path) names product '\(product)', which this package has not")
                    }
                    continue
                }
                if block + "\n" == exampleMain.replacingOccurrences(of: "LibraryLoans", with: "MyApp") { continue }
                let (imports, code) = split(block)
                let matching = regions.filter { $0.text == code }
                guard let region = matching.first else {
                    unchecked.append(String(code.prefix(80)))
                    continue
                }
                for module in imports where module != "MyApp" {
                    #expect(region.imports.contains(module), "\(region.file) does not import \(module) (\(path))")
                }
            }
            #expect(!text.contains("try!"), "\(path) teaches no force try (.swift-format forbids it)")
            return (unchecked, blocks.count)
        }

        @Test func everySwiftBlockOfTheReadmeIsCompiledCode() throws {
            let (unchecked, blocks) = try Self.uncheckedBlocks(of: "README.md", regions: Self.regions())
            #expect(blocks >= 3, "README's Swift blocks were not found")
            #expect(unchecked.isEmpty, "README's Swift blocks without a compiled copy: \(unchecked)")
        }

        @Test func everySwiftBlockOfTheDocsPagesIsCompiledCode() throws {
            let regions = try Self.regions()
            var blocks = 0
            for page in try Self.docsPages() {
                let (unchecked, count) = try Self.uncheckedBlocks(of: page, regions: regions)
                blocks += count
                #expect(unchecked.isEmpty, "\(page)'s Swift blocks without a compiled copy: \(unchecked)")
            }
            #expect(blocks >= 5, "the docs pages' Swift blocks were not found")
        }

        /// The pages of the DocC catalogues (`Sources/ObjectManager/ObjectManager.docc/ObjectManager.md`): the
        /// landing pages; their articles are written from docs/ pages (`.ci/docc-articles.py`), checked above.
        static func catalogPages() throws -> [String] {
            let sources = root.appendingPathComponent("Sources")
            var pages: [String] = []
            for module in try FileManager.default.contentsOfDirectory(atPath: sources.path).sorted() {
                let catalog = sources.appendingPathComponent(module).appendingPathComponent("\(module).docc")
                guard let names = try? FileManager.default.contentsOfDirectory(atPath: catalog.path) else { continue }
                for name in names.sorted() where name.hasSuffix(".md") {
                    let path = catalog.appendingPathComponent(name).path
                    let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
                    if !text.contains(Self.writtenFrom) { pages.append("Sources/\(module)/\(module).docc/\(name)") }
                }
            }
            return pages
        }

        @Test func everySwiftBlockOfTheDocCCataloguesIsCompiledCode() throws {
            let regions = try Self.regions()
            let pages = try Self.catalogPages()
            #expect(pages.count >= 4, "the DocC catalogues' pages were not found: \(pages)")
            for page in pages {
                let (unchecked, _) = try Self.uncheckedBlocks(of: page, regions: regions)
                #expect(unchecked.isEmpty, "\(page)'s Swift blocks without a compiled copy: \(unchecked)")
            }
        }

        /// What the first lines of an article written from a docs/ page say.
        static let writtenFrom = "<!-- Written by .ci/docc-articles.py from docs/"

        /// Every article is written from a docs/ page (CI's `.ci/docc-articles.py --check` holds the text to
        /// it): it names the page, which exists and has the same title.
        @Test func everyArticleOfTheDocCCataloguesIsADocsPage() throws {
            let sources = Self.root.appendingPathComponent("Sources")
            var articles = 0
            for module in try FileManager.default.contentsOfDirectory(atPath: sources.path) {
                let catalog = sources.appendingPathComponent(module).appendingPathComponent("\(module).docc")
                guard let names = try? FileManager.default.contentsOfDirectory(atPath: catalog.path) else { continue }
                for name in names where name.hasSuffix(".md") && name != "\(module).md" {
                    let path = catalog.appendingPathComponent(name).path
                    let text = try String(contentsOfFile: path, encoding: .utf8)
                    let lines = text.split(separator: "\n", omittingEmptySubsequences: true)
                    guard lines.count > 1, lines[1].hasPrefix(Self.writtenFrom) else {
                        Issue.record("\(path) is not written from a docs/ page")
                        continue
                    }
                    let page = lines[1].dropFirst(Self.writtenFrom.count).prefix { $0 != ":" }
                    let source = try String(
                        contentsOf: Self.root.appendingPathComponent("docs").appendingPathComponent(String(page)),
                        encoding: .utf8
                    )
                    #expect(source.split(separator: "\n").first == lines[0], "\(path): the title of docs/\(page)")
                    articles += 1
                }
            }
            #expect(articles >= 7)
        }

        @Test func theSwiftTestTargetIsTheCompiledOne() throws {
            let regions = try Self.regions()
            #expect(
                regions.contains { $0.name == "swift test" && $0.text.contains("ScenarioTesting.scenarios(app: MyApp") }
            )
            #expect(regions.contains { $0.name == "app description" })
            #expect(regions.contains { $0.name == "object manager" })
            #expect(regions.contains { $0.name == "borrow book" })
        }
    }
}
