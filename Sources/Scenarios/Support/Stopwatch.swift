/// Measures elapsed time on any clock whose durations are `Duration`.
struct Stopwatch: Sendable {
    private let read: @Sendable () -> Duration

    init(_ clock: any Clock<Duration>) {
        self.read = Self.start(clock)
    }

    /// The time since the stopwatch was made.
    var elapsed: Duration { read() }

    private static func start<C: Clock<Duration>>(_ clock: C) -> @Sendable () -> Duration {
        let start = clock.now
        return { start.duration(to: clock.now) }
    }
}
