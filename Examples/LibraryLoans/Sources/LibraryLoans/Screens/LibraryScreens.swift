import Synchronization

/// The app's screens, as an iOS app holds its view controllers: one loan list, replaced by the test
/// factory's set-up and tear-down hooks so that scenarios are isolated.
public enum LibraryScreens {
    private static let current = Mutex(LoanList())

    /// The member's loan list.
    public static var loanList: LoanList { current.withLock { $0 } }

    /// A fresh loan list; the old one stops its own work.
    public static func reset() {
        let old = current.withLock { list in
            defer { list = LoanList() }
            return list
        }
        old.close()
    }
}
