public import Foundation
public import ObjectManager
import Synchronization

/// A member's loans: loads them through the named route `loans`, borrows a book by posting a Loan
/// through its class route, and shows which loans are overdue.
///
/// ```swift
/// let list = LoanList()
/// await list.load()                                   // GET /loans
/// list.rows.count; list.overdueCount                  // 2, 1
/// await list.borrow(bookID: 7, member: "Ada Lovelace") // POST /loans
/// list.message                                        // "Borrowed: due 2099-06-01"
/// ```
///
/// Offline it shows what the response cache holds under the message "Offline"; with nothing cached it
/// says so, waits ``retryDelay``, re-arms live reachability monitoring and loads again once the
/// network is reachable. Showing cached loans, it refreshes itself from the server ``refreshDebounce``
/// after the network comes back — work it starts on its own, declared as ``refreshWork``.
public final class LoanList: Sendable {
    /// One loan as the list shows it.
    public struct Row: Sendable, Hashable {
        public var loanID: Int
        public var bookID: Int
        public var member: String
        public var dueDate: Date?
        public var isOverdue: Bool
    }

    /// Posted when a book was borrowed and its loan stored.
    public static let didBorrowBook = Notification.Name("LibraryLoansDidBorrowBook")

    /// The refresh the list starts by itself when the network comes back, raised while it waits and
    /// loads: an idling resource, so scenario expectations wait for it (``LibraryLoans/appUnderTest``).
    public static let refreshWork = CountingIdlingResource("loan list refresh")

    /// How long the list waits before it tries again after finding the network unreachable.
    public let retryDelay: Duration
    /// How long the list waits after the network comes back before it refreshes cached loans, so that a
    /// flapping connection costs one request.
    public let refreshDebounce: Duration
    private let now: @Sendable () -> Date
    private let state = Mutex<(rows: [Row], message: String?, loaded: Bool)>(([], nil, false))
    private let refresh = Mutex<(observer: NotificationObserver?, task: Task<Void, Never>?)>((nil, nil))

    /// - Parameters:
    ///   - now: today's date, for what is overdue.
    ///   - retryDelay: the wait before loading again after finding the network unreachable.
    ///   - refreshDebounce: the wait after the network comes back before cached loans are refreshed.
    public init(
        now: @escaping @Sendable () -> Date = { Date() },
        retryDelay: Duration = .milliseconds(300),
        refreshDebounce: Duration = .milliseconds(800)
    ) {
        self.now = now
        self.retryDelay = retryDelay
        self.refreshDebounce = refreshDebounce
        let token = NotificationCenter.default.addObserver(forName: .reachabilityDidChange, object: nil, queue: nil) {
            [weak self] _ in self?.networkChanged()
        }
        refresh.withLock { $0.observer = NotificationObserver(token) }
    }

    /// Stops listening for the network and cancels a pending refresh: the screen went away.
    public func close() {
        let (observer, task) = refresh.withLock { state in
            defer { state = (nil, nil) }
            return state
        }
        observer?.remove()
        task?.cancel()
    }

    /// Showing cached loans while offline and the network is back: refresh from the server after the
    /// debounce, in a task of the list's own (a newer change restarts the wait).
    private func networkChanged() {
        guard let manager = ObjectManager.shared, manager.client.reachabilityStatus.isReachable,
            message == "Offline"
        else { return }
        let debounce = refreshDebounce
        Self.refreshWork.increment()
        let task = Task { [weak self] in
            defer { Self.refreshWork.decrement() }
            do {
                try await Task.sleep(for: debounce)
            } catch {
                return  // restarted or closed
            }
            await self?.load(cachePolicy: .reloadIgnoringCacheData)
        }
        let previous = refresh.withLock { state -> Task<Void, Never>? in
            defer { state.task = task }
            return state.task
        }
        previous?.cancel()
    }

    /// The loans not yet returned.
    public var rows: [Row] { state.withLock { $0.rows } }
    /// What the list says above its rows: an error, "Offline", or the last borrowed book's due date.
    public var message: String? { state.withLock { $0.message } }
    /// Whether the list has shown anything yet (loaded, borrowed, or failed).
    public var isLoaded: Bool { state.withLock { $0.loaded } }
    /// How many of ``rows`` are past their due date.
    public var overdueCount: Int { rows.count { $0.isOverdue } }

    /// Loads the member's loans.
    public func load(cachePolicy: CachePolicy = .useProtocolCachePolicy) async {
        guard let manager = ObjectManager.shared else {
            show(rows: [], message: "The app is not configured: no object manager.")
            return
        }
        let offline = manager.client.reachabilityStatus == .notReachable
        do {
            let result = try await manager.getObjects(forRouteNamed: "loans", cachePolicy: cachePolicy)
            let rows = result.objects.filter { $0["returned"] != .boolean(true) }.compactMap(row)
            show(rows: rows, message: offline && result.response.isFromCache ? "Offline" : nil)
        } catch .offline {
            show(rows: [], message: "Offline: nothing cached. Retrying when the network is back.")
            await retryWhenReachable(manager)
        } catch {
            show(rows: [], message: error.description)
        }
    }

    /// Borrows a book for a member: posts a new Loan; the server's answer (its ID and due date) is
    /// mapped onto it and stored. Nothing is sent while the network is not reachable.
    public func borrow(bookID: Int, member: String) async {
        guard let manager = ObjectManager.shared, let entity = manager.store?.model.entity(named: "Loan") else {
            show(message: "The app is not configured: no object manager.")
            return
        }
        guard manager.client.reachabilityStatus != .notReachable else {
            show(message: "You are offline. Nothing was borrowed.")
            return
        }
        do {
            let loan = try ManagedObject(
                entity: entity,
                attributes: ["bookID": .integer(bookID), "member": .string(member), "returned": false]
            )
            _ = try await manager.postObject(loan)
            guard let row = row(loan) else {
                show(message: "The server's answer has no loan ID.")
                return
            }
            let due = row.dueDate.map { $0.formatted(.iso8601.year().month().day()) } ?? "not set"
            state.withLock { state in
                state.rows.append(row)
                state.message = "Borrowed: due \(due)"
                state.loaded = true
            }
            NotificationCenter.default.post(name: Self.didBorrowBook, object: self)
        } catch {
            show(message: String(describing: error))
        }
    }

    private func retryWhenReachable(_ manager: ObjectManager) async {
        do {
            try await Task.sleep(for: retryDelay)
        } catch {
            return  // the screen went away
        }
        // A stubbed status stops live monitoring; the retry re-arms it, as a Retry button would.
        manager.client.stopMonitoringReachability()
        await manager.client.startMonitoringReachability()
        guard !Task.isCancelled, manager.client.reachabilityStatus.isReachable else { return }
        await load()
    }

    private func row(_ loan: ManagedObject) -> Row? {
        guard case .integer(let loanID) = loan["loanID"] else { return nil }
        let dueDate: Date? = if case .date(let date) = loan["dueDate"] { date } else { nil }
        let returned = loan["returned"] == .boolean(true)
        return Row(
            loanID: loanID,
            bookID: loan["bookID"].stringValue.flatMap { Int($0) } ?? 0,
            member: loan["member"].stringValue ?? "",
            dueDate: dueDate,
            isOverdue: !returned && (dueDate.map { $0 < now() } ?? false)
        )
    }

    private func show(rows: [Row]? = nil, message: String?) {
        state.withLock { state in
            if let rows { state.rows = rows }
            state.message = message
            state.loaded = true
        }
    }
}

/// A NotificationCenter observer token; only ever handed back to `removeObserver`, which is thread-safe.
private final class NotificationObserver: @unchecked Sendable {
    private let token: any NSObjectProtocol

    init(_ token: any NSObjectProtocol) {
        self.token = token
    }

    func remove() {
        NotificationCenter.default.removeObserver(token)
    }
}
