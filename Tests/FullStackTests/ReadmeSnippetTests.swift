import Foundation
import Testing

extension FullStack {
    /// README.md's Swift is compiled code: its app description is `ReadmeAppTests`' (with `MyApp` for
    /// `ReadmeApp`), line for line, so the README compiles as written.
    @Suite struct ReadmeSnippetTests {
        static let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

        @Test func theReadmesAppDescriptionIsTheCompiledOne() throws {
            let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
            let tests = try String(
                contentsOf: Self.root.appendingPathComponent("Tests/FullStackTests/ReadmeAppTests.swift"),
                encoding: .utf8
            )
            let begin = try #require(tests.range(of: "// README: begin app description\n"))
            let end = try #require(tests.range(of: "// README: end app description"))
            let compiled = String(tests[begin.upperBound..<end.lowerBound]).replacingOccurrences(
                of: "ReadmeApp",
                with: "MyApp"
            )
            #expect(readme.contains(compiled), "README.md's app description differs from ReadmeAppTests.swift")
            #expect(!readme.contains("try!"), "README teaches no force try (.swift-format forbids it)")
        }
    }
}
