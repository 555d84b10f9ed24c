import Scenarios

/// The event loop of the TUI: one unbounded stream of inputs (run events, keys, signals, frame and
/// clock wake-ups) reduced into a ``TUIState``, and frames rendered at most ~30 times a second, only
/// when something changed.
final class RunnerLoop: Sendable {
    enum Input: Sendable {
        case event(RunEvent)
        case inspected(ScenarioID, InspectorSnapshot)
        case runEnded
        case keys([Key])
        case interrupt
        case resize
        case frame
        case tick
        /// Watched files changed (`--watch`).
        case watched(WatchUpdate)
    }

    typealias RunScenarios =
        @Sendable (_ ids: [ScenarioID]?, _ onEvent: @escaping @Sendable (RunEvent) -> Void) async ->
        RunSummary

    private let screen: any Screen
    private let renderer: Renderer
    private let configuration: TUIConfiguration
    private let runScenarios: RunScenarios
    private let cancelRun: @Sendable () -> Void
    private let stream: AsyncStream<Input>
    let inputs: AsyncStream<Input>.Continuation
    private let frameInterval: Duration

    init(
        screen: any Screen,
        renderer: Renderer,
        configuration: TUIConfiguration,
        frameInterval: Duration = .milliseconds(33),
        run: @escaping RunScenarios,
        cancel: @escaping @Sendable () -> Void
    ) {
        self.screen = screen
        self.renderer = renderer
        self.configuration = configuration
        self.frameInterval = frameInterval
        self.runScenarios = run
        self.cancelRun = cancel
        (stream, inputs) = AsyncStream.makeStream(of: Input.self, bufferingPolicy: .unbounded)
    }

    /// Runs the initial selection, then follows keys until the user quits (or, with `exitWhenFinished`,
    /// until the first run ends); returns the session's merged events.
    func run() async -> TUIOutcome {
        let clock = ContinuousClock()
        let start = clock.now
        var state = TUIState(inspectorAvailable: configuration.inspector != nil, statusNote: configuration.statusNote)
        var log = EventLog()
        var runTask: Task<Void, Never>?
        var ticker: Task<Void, Never>?
        /// A run `--watch` asked for while another was in progress: it starts when that one ends.
        var queuedRun: [ScenarioID]?
        var quitting = false
        var dirty = true
        var framePending = false
        var lastFrame = clock.now - frameInterval
        let inputs = self.inputs

        func startRun(_ ids: [ScenarioID]?) {
            guard runTask == nil else { return }
            let inspector = configuration.inspector
            let runScenarios = self.runScenarios
            runTask = Task {
                _ = await runScenarios(ids) { event in
                    inputs.yield(.event(event))
                    // Snapshot now: with KIF_SKIP_TEAR_DOWN the state lives until the next set-up.
                    if case .scenarioFinished(let id, let outcome, _) = event, outcome != .skipped,
                        let snapshot = inspector?()
                    {
                        inputs.yield(.inspected(id, snapshot))
                    }
                }
                inputs.yield(.runEnded)
            }
            ticker = Task {
                while !Task.isCancelled {
                    try? await Task.sleep(for: .seconds(1))
                    inputs.yield(.tick)
                }
            }
        }

        func render() {
            let size = screen.size
            screen.present(renderer.render(state, width: size.width, height: size.height))
            lastFrame = clock.now
            dirty = false
        }

        screen.startReadingKeys { inputs.yield(.keys($0)) }
        startRun(nil)
        render()

        loop: for await input in stream {
            state.now = clock.now - start
            switch input {
            case .event(let event):
                state.apply(event)
                log.record(event)
            case .inspected(let id, let snapshot):
                state.record(snapshot, for: id)
            case .runEnded:
                runTask = nil
                ticker?.cancel()
                ticker = nil
                if quitting || configuration.exitWhenFinished { break loop }
                if let queued = queuedRun {
                    queuedRun = nil
                    startRun(queued)
                }
            case .keys(let keys):
                if keys.contains(.resize) { screen.refreshSize() }
                for action in state.handle(keys) {
                    switch action {
                    case .rerun(let ids), .rerunFailed(let ids): startRun(ids)
                    case .rerunAll: startRun(state.order)
                    case .cancel: cancelRun()
                    case .quit:
                        if runTask == nil { break loop }
                        quitting = true
                        cancelRun()
                    }
                }
            case .interrupt:
                if runTask == nil { break loop }
                quitting = true
                cancelRun()
            case .resize:
                screen.refreshSize()
            case .frame:
                framePending = false
            case .tick:
                break
            case .watched(.failed(let text)):
                state.loadError = text
            case .watched(.note(let text)):
                state.message = text
            case .watched(.reloaded(let all, let run, let changed)):
                state.loadError = nil
                state.keepOnly(all)
                state.message =
                    "Changed \(changed): " + (run.isEmpty ? "nothing selected to run." : "running it again.")
                guard !run.isEmpty else { break }
                if runTask == nil {
                    startRun(run)
                } else {
                    // Saves during the cancelled run add up: every changed file's scenarios run next.
                    let queued = queuedRun ?? []
                    queuedRun = queued + run.filter { !queued.contains($0) }
                    cancelRun()
                }
            }
            if case .frame = input {} else { dirty = true }
            if dirty {
                let now = clock.now
                if now - lastFrame >= frameInterval {
                    render()
                } else if !framePending {
                    framePending = true
                    let due = lastFrame + frameInterval
                    Task {
                        try? await clock.sleep(until: due)
                        inputs.yield(.frame)
                    }
                }
            }
        }
        ticker?.cancel()
        inputs.finish()
        let merged = log.merged()
        return TUIOutcome(events: merged.events, summary: merged.summary)
    }
}
