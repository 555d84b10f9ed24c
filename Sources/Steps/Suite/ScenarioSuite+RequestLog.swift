import Foundation
import Scenarios
import StubServer

extension ScenarioSuite {
    /// The journal as a try's request log: the first ``LoggedRequest/perScenario`` requests with their
    /// answers, and how many more there were (the journal's own bounds included). The bodies cut to
    /// `bodyBytes` bytes each; with `nil`, only their lengths.
    static func requestLog(_ journal: RequestJournal, bodyBytes: Int?) -> (requests: [LoggedRequest], dropped: Int) {
        let (entries, forgotten) = journal.entriesAndDropped
        let logged = entries.prefix(LoggedRequest.perScenario).map { entry in
            LoggedRequest(
                method: entry.method,
                target: entry.target,
                status: entry.status,
                route: entry.route,
                received: entry.received,
                requestBody: bodyBytes.map { LoggedRequest.text(entry.body, upTo: $0) },
                requestBodyLength: entry.bodyLength,
                responseBody: bodyBytes.map { LoggedRequest.text(entry.responseBody, upTo: $0) },
                responseBodyLength: entry.responseBodyLength
            )
        }
        return (logged, forgotten + entries.count - logged.count)
    }

    /// What a try's request log holds, by the reports the run writes (``RunSettings/requestLog``): every
    /// try's requests (JUnit's `system-out` lists them), and for the HTML page their bodies — up to
    /// ``LoggedRequest/bodyBytes`` of a try that failed, ``LoggedRequest/passedBodyBytes`` of one that
    /// passed. JUnit shows no bodies, so a run without the page keeps only their lengths.
    static func requestLog(
        _ journal: RequestJournal,
        failed: Bool,
        settings: RunSettings
    ) -> (requests: [LoggedRequest], dropped: Int) {
        guard settings.htmlReport != nil else { return requestLog(journal, bodyBytes: nil) }
        return requestLog(journal, bodyBytes: failed ? LoggedRequest.bodyBytes : LoggedRequest.passedBodyBytes)
    }
}
