import Synchronization

/// Review drafts the composer saved, kept beyond any screen (an app would keep them on disk). Set-up
/// starts every scenario without any; tear-down deliberately leaves them, so that the leaking example
/// (`Scenarios/examples-failing/leaking.yml`) shows what the app's leak check reports.
public enum Drafts {
    private static let titles = Mutex<[String]>([])

    /// Saves a draft with this title.
    public static func save(title: String) {
        titles.withLock { $0.append(title) }
    }

    /// The saved drafts' titles, oldest first.
    public static var all: [String] { titles.withLock { $0 } }

    /// Forgets every draft.
    public static func removeAll() {
        titles.withLock { $0.removeAll() }
    }
}
