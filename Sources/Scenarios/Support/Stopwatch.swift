/// Measures elapsed time on any clock whose durations are `Duration`.
///
/// The run's own clock, `ContinuousClock`, is read directly: a runner starts and reads a stopwatch
/// dozens of times a scenario, and reading any other clock goes through its protocol's witnesses and
/// a closure (about twice the instructions). Tests' clocks take that path.
struct Stopwatch: Sendable {
    /// When it started, on the continuous clock.
    private let start: ContinuousClock.Instant
    /// Another clock's elapsed time since the start; `nil` on the continuous clock. Two plain fields, not
    /// an enum with a closure in one case: a stopwatch is copied a few dozen times a scenario.
    private let read: (@Sendable () -> Duration)?

    init(_ clock: any Clock<Duration>) {
        if type(of: clock) == ContinuousClock.self {
            start = .now
            read = nil
        } else {
            start = .now
            read = Self.start(clock)
        }
    }

    /// The time since the stopwatch was made.
    var elapsed: Duration {
        if let read { return read() }
        return start.duration(to: .now)
    }

    private static func start<C: Clock<Duration>>(_ clock: C) -> @Sendable () -> Duration {
        let start = clock.now
        return { start.duration(to: clock.now) }
    }
}
