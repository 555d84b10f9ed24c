/// Work an app starts on its own — a notification handler, a debounce, a timer, a sync loop — that a
/// scenario's expectations must wait for (Espresso's `IdlingResource`). Declared on the app's
/// description (`AppUnderTest(idlingResources:)`); before each attempt of an expectation the runner asks
/// every resource whether it is idle, and a failing expectation gives up before its timeout only while
/// all of them are.
///
/// Most apps use a ``CountingIdlingResource`` that their code raises and lowers around the work; an
/// ``IdlingProbe`` asks a question instead.
public protocol IdlingResource: Sendable {
    /// Names the resource in the live runner and in reasons (`outbox`).
    var name: String { get }
    /// Whether no work of this resource is running or pending now.
    var isIdle: Bool { get }
}

/// An idling resource that answers by calling a closure ("is the outbox empty?").
///
/// ```swift
/// IdlingProbe("outbox") { Outbox.shared.isEmpty }
/// ```
public struct IdlingProbe: IdlingResource {
    public let name: String
    private let probe: @Sendable () -> Bool

    /// Makes a resource named `name` that is idle when `isIdle` returns true.
    public init(_ name: String, isIdle: @escaping @Sendable () -> Bool) {
        self.name = name
        self.probe = isIdle
    }

    public var isIdle: Bool { probe() }
}
