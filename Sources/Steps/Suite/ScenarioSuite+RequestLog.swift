import Foundation
import Scenarios
import StubServer

extension ScenarioSuite {
    /// The journal as a try's request log: the first ``LoggedRequest/perScenario`` requests with their
    /// answers, bodies cut to ``LoggedRequest/bodyBytes``, and how many more there were (the journal's own
    /// bounds included).
    static func requestLog(_ journal: RequestJournal) -> (requests: [LoggedRequest], dropped: Int) {
        let (entries, forgotten) = journal.entriesAndDropped
        let logged = entries.prefix(LoggedRequest.perScenario).map { entry in
            LoggedRequest(
                method: entry.method,
                target: entry.target,
                status: entry.status,
                route: entry.route,
                received: entry.received,
                requestBody: LoggedRequest.text(entry.body),
                requestBodyLength: entry.bodyLength,
                responseBody: LoggedRequest.text(entry.responseBody),
                responseBodyLength: entry.responseBodyLength
            )
        }
        return (logged, forgotten + entries.count - logged.count)
    }
}
