import Foundation

/// `PATH:LINE` arguments: run the scenario, or the example row, written at that line of a file — what
/// a failure's `at Scenarios/reviews.yml:12` names. Any line of a scenario selects it (its `- scenario:`
/// item to the line before the next); a row's line selects that row, any other line of an outline all
/// its rows. `PATH:LINE:LINE` names several lines of one file.
///
/// ```swift
/// let lines = ScenarioLines(arguments: ["Scenarios/reviews.yml:12", "Scenarios/store.yml"])
/// lines.paths                                   // ["Scenarios/reviews.yml", "Scenarios/store.yml"]
/// let chosen = try lines.selection(of: loaded)  // reviews.yml's scenario at line 12, and all of store.yml
/// ```
package struct ScenarioLines: Sendable {
    /// One `PATH:LINE…` argument.
    package struct Spec: Sendable, Hashable {
        package var path: String
        package var lines: [Int]
    }

    /// The paths to load: every argument with its lines cut off.
    package private(set) var paths: [String] = []
    /// The arguments that named lines.
    package private(set) var specs: [Spec] = []
    /// The arguments that named no line: all their scenarios run.
    package private(set) var wholePaths: [String] = []

    /// Splits the arguments; an argument that exists as it is written is a path, whatever its end.
    package init(arguments: [String], exists: (String) -> Bool = { FileManager.default.fileExists(atPath: $0) }) {
        for argument in arguments {
            if !exists(argument), let spec = Self.spec(argument) {
                specs.append(spec)
                paths.append(spec.path)
            } else {
                wholePaths.append(argument)
                paths.append(argument)
            }
        }
    }

    /// `PATH:12` or `PATH:12:30` (every line at least 1), or `nil`.
    static func spec(_ argument: String) -> Spec? {
        var rest = Substring(argument)
        var lines: [Int] = []
        while let colon = rest.lastIndex(of: ":"), let line = Int(rest[rest.index(after: colon)...]), line > 0,
            rest[rest.index(after: colon)...].allSatisfy(\.isASCII)
        {
            lines.insert(line, at: 0)
            rest = rest[..<colon]
        }
        guard !lines.isEmpty, !rest.isEmpty else { return nil }
        return Spec(path: String(rest), lines: lines)
    }

    /// The chosen scenarios of `loaded` when lines were named (`nil` when none were: every scenario).
    /// A file also given whole (itself or its folder, in `wholeFiles`) keeps all its scenarios.
    package func selection(of loaded: [Scenario], wholeFiles: [String] = []) throws(ScenarioSelectionError)
        -> LineSelection?
    {
        guard !specs.isEmpty else { return nil }
        var keys: [String: String] = [:]
        func key(_ file: String) -> String {
            if let known = keys[file] { return known }
            // One file by its real path: named through a link and directly, it is one file.
            let standard = URL(fileURLWithPath: file).standardizedFileURL.resolvingSymlinksInPath().path
            keys[file] = standard
            return standard
        }
        var byFile: [String: [Scenario]] = [:]
        for scenario in loaded { byFile[key(scenario.file), default: []].append(scenario) }
        let whole = Set(wholeFiles.map(key))
        var chosen: Set<ScenarioID> = []
        var restricted: Set<String> = []
        for spec in specs {
            let file = key(spec.path)
            if !whole.contains(file) { restricted.insert(file) }
            let scenarios = byFile[file] ?? []
            // Where each scenario's block starts: its own item, or its outline's.
            let starts = Set(scenarios.map { $0.example?.outline.line ?? $0.location.line }).sorted()
            for line in spec.lines {
                let rows = scenarios.filter { $0.example != nil && $0.location.line == line }
                if !rows.isEmpty {
                    chosen.formUnion(rows.map(\.id))
                    continue
                }
                // The block that starts last at or before the line, if the line is inside it (not past the
                // file's last scenario, not in a `tear down:` written after it).
                let block = starts.last(where: { $0 <= line }).map { start in
                    scenarios.filter { ($0.example?.outline.line ?? $0.location.line) == start }
                }
                guard let block, let first = block.first, first.lastLine == 0 || line <= first.lastLine else {
                    throw .noScenarioAtLine(path: spec.path, line: line, starts: starts)
                }
                chosen.formUnion(block.map(\.id))
            }
        }
        return LineSelection(chosen: chosen, restrictedFiles: restricted, keys: keys)
    }
}

/// What `PATH:LINE` arguments chose: those scenarios in the files they named, everything elsewhere.
package struct LineSelection: Sendable {
    var chosen: Set<ScenarioID>
    /// The standardized paths of the files whose scenarios run only when chosen.
    var restrictedFiles: Set<String>
    /// Each scenario file's standardized path.
    var keys: [String: String]

    package func contains(_ scenario: Scenario) -> Bool {
        chosen.contains(scenario.id) || !restrictedFiles.contains(keys[scenario.file] ?? scenario.file)
    }
}
