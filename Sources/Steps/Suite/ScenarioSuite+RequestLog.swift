import Foundation
import Scenarios
import StubServer

extension ScenarioSuite {
    /// The journal as a try's request log: the first ``LoggedRequest/perScenario`` requests with their
    /// answers, and how many more there were (the journal's own bounds included). The bodies (cut to
    /// ``LoggedRequest/bodyBytes``) only with `bodies`; else only their lengths.
    static func requestLog(_ journal: RequestJournal, bodies: Bool) -> (requests: [LoggedRequest], dropped: Int) {
        let (entries, forgotten) = journal.entriesAndDropped
        let logged = entries.prefix(LoggedRequest.perScenario).map { entry in
            LoggedRequest(
                method: entry.method,
                target: entry.target,
                status: entry.status,
                route: entry.route,
                received: entry.received,
                requestBody: bodies ? LoggedRequest.text(entry.body) : nil,
                requestBodyLength: entry.bodyLength,
                responseBody: bodies ? LoggedRequest.text(entry.responseBody) : nil,
                responseBodyLength: entry.responseBodyLength
            )
        }
        return (logged, forgotten + entries.count - logged.count)
    }

    /// What a try's request log holds, by the reports the run writes (``RunSettings/requestLog``): the HTML
    /// page shows every try's requests and the bodies of a try that failed; JUnit only a failed try's
    /// requests (its `system-out`), so a run with JUnit alone logs nothing of a try that passed.
    static func requestLog(
        _ journal: RequestJournal,
        failed: Bool,
        settings: RunSettings
    ) -> (requests: [LoggedRequest], dropped: Int) {
        let page = settings.htmlReport != nil
        guard page || failed else { return ([], 0) }
        return requestLog(journal, bodies: page && failed)
    }
}
