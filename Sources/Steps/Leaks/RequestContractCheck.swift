package import Contract
package import Scenarios
package import StubServer
import Synchronization

/// The API's document holding a scenario's requests as they are sent: after each step that passed, the
/// requests the stub server received during it (apart from those a `contract: off` route answered) are
/// checked, and under `contract: fail` a request that breaks the document fails the step that sent it;
/// `check for leaks` checks the rest (requests sent during tear-down, or by a step that failed anyway).
///
/// ```swift
/// let check = RequestContractCheck(document: document, mode: .fail, journal: server.journal)
/// check.begin(context)              // in the runner's prepare
/// check.afterStep(context)          // "1 request problem against openapi.yaml: POST /reviews: …"
/// ```
package struct RequestContractCheck: Sendable {
    package let document: APIDocument
    package let mode: RunSettings.ContractMode
    package let journal: RequestJournal

    /// How far a scenario's requests have been checked.
    final class Progress: Sendable {
        let cursor: Mutex<RequestJournal.Cursor>
        init(_ cursor: RequestJournal.Cursor) { self.cursor = Mutex(cursor) }
    }

    enum Key: ContextKey { typealias Value = Progress }

    package init(document: APIDocument, mode: RunSettings.ContractMode, journal: RequestJournal) {
        self.document = document
        self.mode = mode
        self.journal = journal
    }

    /// Starts the scenario's checking where the journal ends now: an earlier scenario's late request is
    /// not this one's.
    package func begin(_ context: ScenarioContext) {
        context[Key.self] = Progress(journal.end)
    }

    /// After a step that passed: why it fails (`contract: fail`), with the step that sent the first request
    /// that breaks the document when it is known; `nil` otherwise (`warn` logs the problems).
    package func afterStep(_ context: ScenarioContext) -> StepCheckFailure? {
        let (problems, first) = check(unchecked(in: context))
        guard let problem = problems.first else { return nil }
        guard mode == .fail else {
            context.log("warning: \(problem)")
            return nil
        }
        let sender = first?.origin.flatMap { $0.scenarioTry == context.scenarioTry ? $0.step : nil }
        return StepCheckFailure(reason: problem, sender: sender)
    }

    /// The problems of the requests not yet checked (at most one line, naming the first three); from now
    /// on they are checked.
    package func uncheckedProblems(in context: ScenarioContext) -> [String] {
        check(unchecked(in: context)).problems
    }

    /// The requests received since the last check (every one of the journal without a scenario's progress).
    private func unchecked(in context: ScenarioContext) -> [JournalEntry] {
        guard let progress = context[Key.self] else { return journal.entries }
        return progress.cursor.withLock { cursor in
            let (new, end) = journal.entries(since: cursor)
            cursor = end
            return new
        }
    }

    private func check(_ entries: [JournalEntry]) -> (problems: [String], first: JournalEntry?) {
        var found: [String] = []
        var count = 0
        var first: JournalEntry?
        for entry in entries where entry.heldToContract {
            let broken = RequestContract.violations(of: entry, against: document)
            if first == nil, !broken.isEmpty { first = entry }
            count += broken.count
            if found.count < 3 { found += broken.prefix(3 - found.count) }
        }
        guard count > 0 else { return ([], nil) }
        let more = count > found.count ? " (and \(count - found.count) more)" : ""
        return (
            [
                "\(SharedStateLeaks.counted(count, "request problem")) against \(document.file)\(more): "
                    + found.joined(separator: "; ")
            ],
            first
        )
    }
}
