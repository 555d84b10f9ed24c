/// When a failing expectation may give up before its timeout (SPEC §13): once, for the settle time,
/// nothing was running before any of its attempts and nothing changed — no change signalled during an
/// attempt or between two of them. A plain value the runner feeds after every *wait*, on step-relative
/// times, so the decision is tested without a clock.
struct SettleWatch {
    /// `nil` when the step does not settle or `settle time: off`: it waits out its timeout.
    let settleTime: Duration?
    /// The step-relative time since which nothing ran or changed — the step's start at first, so every
    /// failing expectation waits at least the settle time; `nil` while the last reading found work running.
    private(set) var quietSince: Duration? = .zero
    private var lastGeneration: UInt64

    init(settleTime: Duration?, generation: UInt64) {
        self.settleTime = settleTime
        self.lastGeneration = generation
    }

    var isOn: Bool { settleTime != nil }

    /// Records an attempt that answered *wait*, ended at `time`: whether something ran when it began,
    /// and the change generation before and after it. Quiet counts from the first reading after work or a
    /// change, never from before it.
    mutating func attempted(at time: Duration, busy: Bool, generationBefore: UInt64, generationAfter: UInt64) {
        if busy {
            quietSince = nil
        } else if generationBefore != lastGeneration || generationAfter != generationBefore || quietSince == nil {
            quietSince = time
        }
        lastGeneration = generationAfter
    }

    /// Whether the settle time has passed quietly at `time`.
    func hasSettled(at time: Duration) -> Bool {
        guard let settleTime, let quietSince else { return false }
        return time - quietSince >= settleTime
    }

    /// How long until the settle time would pass quietly (a pause need not outlast it).
    func untilSettled(at time: Duration) -> Duration {
        guard let settleTime, let quietSince else { return .seconds(86_400) }
        return max(.zero, quietSince + settleTime - time)
    }
}
