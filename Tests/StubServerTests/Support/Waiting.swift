import StubServer

struct TimedOut: Error, CustomStringConvertible {
    var description: String
}

extension RequestJournal {
    /// Returns once the journal holds at least `count` entries; throws after `timeout`.
    func waitForEntries(_ count: Int, timeout: Duration = .seconds(60)) async throws {
        let changes = self.changes()
        if entries.count >= count { return }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for await _ in changes where self.entries.count >= count { return }
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                throw TimedOut(description: "The journal did not reach \(count) entries within \(timeout).")
            }
            try await group.next()
            group.cancelAll()
        }
    }
}
