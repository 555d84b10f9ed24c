import Synchronization

/// Waits for a condition with a deadline instead of sleeping a fixed time: checks it, then again
/// after each short pause, until it holds or `timeout` has passed. Returns whether it held.
///
/// The default is long on purpose: what these conditions wait for takes milliseconds alone, but `swift
/// test` runs every test at once, and on two cores dozens of child processes of the CLI tests can hold
/// the in-process ones off for more than ten seconds (a CI replica failed so at 10 s). A passing
/// condition returns as soon as it holds; only a real failure waits the whole minute.
public func eventually(timeout: Duration = .seconds(60), _ condition: () async -> Bool) async -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    while clock.now < deadline {
        if await condition() { return true }
        try? await Task.sleep(for: .milliseconds(2))
    }
    return await condition()
}

/// Collects what happened, in order, across tasks and threads.
public final class Recorder<Element: Sendable>: Sendable {
    private let items = Mutex<[Element]>([])

    public init() {}

    public func append(_ item: Element) { items.withLock { $0.append(item) } }

    public var all: [Element] { items.withLock { $0 } }
}

/// A count kept across tasks and threads (callbacks on server threads, accepted connections).
public final class Counter: Sendable {
    private let count = Mutex(0)

    public init() {}

    public var value: Int { count.withLock { $0 } }

    public func increment() { count.withLock { $0 += 1 } }
}
