import Foundation
import Testing

extension FullStack {
    /// README.md's Swift is compiled code. Every ```swift block must be one of: a region of a test file
    /// between `// README: begin NAME` and `// README: end NAME` (indented as it may be there, `MyApp` named
    /// `ReadmeApp`, and the block's imports imported by that file — `import MyApp` is the app's own module
    /// there); the example project's `main.swift` (`MyApp` named `LibraryLoans`); or the manifest fragment,
    /// whose products must be this package's. A new block without a compiled copy fails here.
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

        static func readme() throws -> String {
            try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        }

        /// The README's Swift blocks, in order.
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

        @Test func everySwiftBlockOfTheReadmeIsCompiledCode() throws {
            let readme = try Self.readme()
            let blocks = Self.swiftBlocks(of: readme)
            #expect(blocks.count >= 5, "README's Swift blocks were not found")
            let regions = try Self.regions()
            let exampleMain = try String(
                contentsOf: Self.root.appendingPathComponent("Examples/LibraryLoans/Sources/library-loans/main.swift"),
                encoding: .utf8
            )
            let manifest = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
            var unchecked: [String] = []
            for block in blocks {
                if block.contains(".package(url:") {
                    // The manifest fragment: every product it names is one of this package's.
                    let products = block.components(separatedBy: ".product(name: \"").dropFirst()
                        .compactMap { $0.split(separator: "\"").first.map(String.init) }
                    #expect(!products.isEmpty)
                    for product in products {
                        #expect(manifest.contains(".library(name: \"\(product)\""), "README names product '\(product)'")
                    }
                    continue
                }
                if block + "\n" == exampleMain.replacingOccurrences(of: "LibraryLoans", with: "MyApp") { continue }
                let (imports, code) = Self.split(block)
                let matching = regions.filter { $0.text == code }
                guard let region = matching.first else {
                    unchecked.append(String(code.prefix(80)))
                    continue
                }
                for module in imports where module != "MyApp" {
                    #expect(region.imports.contains(module), "\(region.file) does not import \(module)")
                }
            }
            #expect(unchecked.isEmpty, "README's Swift blocks without a compiled copy: \(unchecked)")
            #expect(!readme.contains("try!"), "README teaches no force try (.swift-format forbids it)")
        }

        @Test func theSwiftTestTargetIsTheCompiledOne() throws {
            let regions = try Self.regions()
            #expect(
                regions.contains { $0.name == "swift test" && $0.text.contains("ScenarioTesting.scenarios(app: MyApp") }
            )
            #expect(regions.contains { $0.name == "app description" })
            #expect(regions.contains { $0.name == "object manager" })
        }
    }
}
