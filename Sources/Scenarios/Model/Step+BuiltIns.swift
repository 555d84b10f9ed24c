import Diagnostics

extension Step {
    /// A step that always passes.
    public static func succeed(_ reason: String) -> Step {
        Step("succeed: \(reason)") { _ in .success }.returningPromptly()
    }

    /// A step that always fails with `reason`.
    public static func fail(_ reason: String) -> Step {
        Step("fail: \(reason)") { _ in .failure(reason) }.returningPromptly()
    }

    /// Waits until `seconds` have passed on the context's clock (KIF `stepToWaitForTimeInterval`).
    ///
    /// The step answers *wait* until the time has passed, so its timeout is the interval plus a second.
    public static func wait(seconds: Double) -> Step {
        wait(Duration(checkedSeconds: seconds) ?? (seconds > 0 ? .longestAllowed : .zero))
    }

    /// Waits until `interval` has passed on the context's clock.
    public static func wait(_ interval: Duration) -> Step {
        wait(Resolvable(interval))
    }

    /// Waits until `interval` has passed on the context's clock; an interval written with `${…}` is
    /// converted when the step runs (failing at its location when it is not a number of seconds), and
    /// the step's timeout is then the longest interval allowed plus a second.
    package static func wait(_ interval: Resolvable<Duration>) -> Step {
        let timeout = (interval.literal ?? .longestAllowed) + .seconds(1)
        return Step("wait \(interval.described(\.shortSeconds)) s", timeout: timeout) { context in
            let interval = try interval.resolve(in: context)
            let elapsed = context.stepElapsed
            if elapsed >= interval { return .success }
            return .wait("\((interval - elapsed).shortSeconds) s left of \(interval.shortSeconds) s")
        }.returningPromptly()
    }
}
