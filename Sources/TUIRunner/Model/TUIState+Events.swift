package import Scenarios

/// Reducing run events into the state: the plan, each scenario's and step's status, the totals, the flaky
/// badges, and the selection that follows the running scenario.
extension TUIState {
    /// Reduces one run event into the state.
    package mutating func apply(_ event: RunEvent) {
        switch event {
        case .runStarted(let plan):
            for planned in plan.scenarios {
                if let old = scenarios[planned.id] {
                    count(old.status, in: planned.id.file, by: -1)
                } else {
                    counts.total += 1
                    countsByFile[planned.id.file, default: Counts()].total += 1
                    order.append(planned.id)
                    if featureNames[planned.id.file] == nil {
                        files.append(planned.id.file)
                        featureNames[planned.id.file] = planned.feature
                    }
                }
                scenarios[planned.id] = ScenarioState(planned)
                inspections[planned.id] = nil
                tries[planned.id] = nil
            }
            refreshRows()
            runCount += 1
            runState = .running
            running = nil
            runStartedAt = now
            followsRunning = true
        case .scenarioStarted(let id, _):
            if let planned = scenarios[id]?.planned, tries[id, default: (0, 0)].started > 0 {
                // Another try: its steps start afresh.
                scenarios[id]?.steps = planned.steps.map { StepState(planned: $0) }
                scenarios[id]?.logs = []
                scenarios[id]?.failedStep = nil
            }
            tries[id, default: (0, 0)].started += 1
            setStatus(.running, of: id)
            running = id
            if followsRunning, rowIndex[.scenario(id)] != nil {
                selection = .scenario(id)
                stepSelection = nil
            }
        case .stepStarted(let id, let step, _):
            updateStep(id, step) { $0.status = .running }
        case .stepWaiting(let id, let step, let reason, let waited):
            updateStep(id, step) {
                $0.waited = waited
                $0.waitReason = reason
            }
        case .stepFinished(let id, let step, _, let outcome, let duration):
            updateStep(id, step) {
                $0.duration = duration
                switch outcome {
                case .passed: $0.status = .passed
                case .skipped: $0.status = .skipped
                case .warned(let reason):
                    $0.status = .warned
                    $0.warning = reason
                case .failed(let reason, let location):
                    $0.status = .failed
                    $0.failure = reason
                    $0.failureLocation = location
                }
            }
        case .log(let id, let line):
            scenarios[id]?.logs.append(line)
        case .requests, .requestLog:
            break
        case .attemptFinished(let id, _, let outcome, _):
            if case .failed = outcome { tries[id, default: (0, 0)].failed += 1 }
        case .scenarioFinished(let id, let outcome, let duration):
            guard var scenario = scenarios[id] else { break }
            scenario.duration = duration
            if case .failed(let step, _) = outcome { scenario.failedStep = step }
            scenarios[id] = scenario
            if outcome == .passed, let count = tries[id], count.failed > 0 {
                flaky[id] = (count.failed, count.started)
            }
            switch outcome {
            case .passed: setStatus(.passed, of: id)
            case .skipped: setStatus(.skipped, of: id)
            case .failed: setStatus(.failed, of: id)
            }
            if running == id { running = nil }
            if filterMode == .failed { refreshRows() }
        case .runFinished(let summary):
            runState = summary.cancelled ? .cancelled : .finished
            running = nil
            lastElapsed = summary.duration
            runStartedAt = nil
        }
        normalizeSelection()
    }

    private mutating func setStatus(_ status: ScenarioStatus, of id: ScenarioID) {
        guard let old = scenarios[id]?.status else { return }
        count(old, in: id.file, by: -1)
        scenarios[id]?.status = status
        count(status, in: id.file, by: 1)
    }

    /// Adds (or with -1 removes) a status's share of the done and failed totals.
    mutating func count(_ status: ScenarioStatus, in file: String, by delta: Int) {
        let done = status.isDone ? delta : 0
        let failed = status == .failed ? delta : 0
        guard done != 0 || failed != 0 else { return }
        counts.done += done
        counts.failed += failed
        countsByFile[file, default: Counts()].done += done
        countsByFile[file, default: Counts()].failed += failed
    }

    /// Keeps what the inspector will show for a scenario that just finished.
    mutating func record(_ snapshot: InspectorSnapshot, for id: ScenarioID) {
        inspections[id] = snapshot
    }

    private mutating func updateStep(_ id: ScenarioID, _ step: Int, _ change: (inout StepState) -> Void) {
        guard var scenario = scenarios[id], scenario.steps.indices.contains(step) else { return }
        change(&scenario.steps[step])
        scenarios[id] = scenario
    }
}
