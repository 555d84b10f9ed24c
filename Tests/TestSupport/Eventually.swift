import Synchronization

/// Waits for a condition with a deadline instead of sleeping a fixed time: checks it, then again
/// after each short pause, until it holds or `timeout` has passed. Returns whether it held.
public func eventually(timeout: Duration = .seconds(10), _ condition: () async -> Bool) async -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    while clock.now < deadline {
        if await condition() { return true }
        try? await Task.sleep(for: .milliseconds(2))
    }
    return await condition()
}

/// Collects what happened, in order, across tasks.
public final class Recorder: Sendable {
    private let items = Mutex<[String]>([])

    public init() {}

    public func record(_ item: String) { items.withLock { $0.append(item) } }

    public var all: [String] { items.withLock { $0 } }
}
