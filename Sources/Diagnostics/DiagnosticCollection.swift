/// The diagnostics of a load as they are found, within a bound: the first ``keptLimit`` in file, line
/// and column order are kept, the rest only counted. Every error still counts (`N errors; nothing was
/// run.`), but a file under 64 MB with an error every two bytes — 32 million of them — no longer holds
/// 32 million diagnostics (about 6 GB) to print a hundred.
///
/// ```swift
/// var found: DiagnosticCollection = []
/// found.append(diagnostic)
/// throw DiagnosticList(found)
/// ```
package struct DiagnosticCollection: Sendable, ExpressibleByArrayLiteral {
    /// How many diagnostics are kept: far more than ``DiagnosticList/shownLimit``, so that what is shown
    /// is the same as when all were kept.
    package static let keptLimit = 10_000

    /// The first diagnostics (at most twice ``keptLimit`` between trims; in no particular order).
    package private(set) var kept: [Diagnostic] = []
    /// Every diagnostic appended, kept or not.
    package private(set) var count = 0
    /// ``count`` at the last trim: the diagnostics appended since are the last of ``kept``, in order.
    private var trimmedAt = 0

    package init(_ diagnostics: [Diagnostic] = []) {
        for diagnostic in diagnostics { append(diagnostic) }
    }

    package init(arrayLiteral diagnostics: Diagnostic...) {
        self.init(diagnostics)
    }

    package var isEmpty: Bool { count == 0 }

    package mutating func append(_ diagnostic: Diagnostic) {
        count += 1
        kept.append(diagnostic)
        if kept.count >= 2 * Self.keptLimit { trim() }
    }

    /// Adds a list's diagnostics and the ones it only counted.
    package static func += (collection: inout DiagnosticCollection, list: DiagnosticList) {
        for diagnostic in list.diagnostics { collection.append(diagnostic) }
        collection.count += list.total - list.diagnostics.count
    }

    package static func += (collection: inout DiagnosticCollection, other: DiagnosticCollection) {
        for diagnostic in other.kept { collection.append(diagnostic) }
        collection.count += other.count - other.kept.count
    }

    package static func += (collection: inout DiagnosticCollection, diagnostics: [Diagnostic]) {
        for diagnostic in diagnostics { collection.append(diagnostic) }
    }

    /// Drops the diagnostics appended after the mark (a ``count`` read earlier) that repeat one appended
    /// after it: an outline's rows share its steps, and a mistake in a step is said once, not once per row.
    /// After a trim the kept ones are no longer in arrival order, and nothing is dropped.
    package mutating func dropRepeats(appendedSince mark: Int) {
        guard mark >= trimmedAt, count - mark > 1, count - mark <= kept.count else { return }
        let start = kept.count - (count - mark)
        var seen: Set<Diagnostic> = []
        let distinct = kept[start...].filter { seen.insert($0).inserted }
        count -= (kept.count - start) - distinct.count
        kept.removeSubrange(start...)
        kept += distinct
    }

    /// Keeps the first ``keptLimit`` in order: amortised O(log n) per diagnostic.
    private mutating func trim() {
        kept.sort(by: DiagnosticList.precedes)
        kept.removeLast(kept.count - Self.keptLimit)
        trimmedAt = count
    }
}
