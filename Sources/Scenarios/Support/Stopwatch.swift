/// Measures elapsed time on any clock whose durations are `Duration`.
///
/// The run's own clock, `ContinuousClock`, is read directly: a runner starts and reads a stopwatch
/// dozens of times a scenario, and reading any other clock goes through its protocol's witnesses and
/// a closure (about twice the instructions). Tests' clocks take that path.
struct Stopwatch: Sendable {
    private enum Start: Sendable {
        case continuous(ContinuousClock.Instant)
        case other(@Sendable () -> Duration)
    }

    private let start: Start

    init(_ clock: any Clock<Duration>) {
        start = type(of: clock) == ContinuousClock.self ? .continuous(.now) : .other(Self.start(clock))
    }

    /// The time since the stopwatch was made.
    var elapsed: Duration {
        switch start {
        case .continuous(let instant): instant.duration(to: .now)
        case .other(let read): read()
        }
    }

    private static func start<C: Clock<Duration>>(_ clock: C) -> @Sendable () -> Duration {
        let start = clock.now
        return { start.duration(to: clock.now) }
    }
}
