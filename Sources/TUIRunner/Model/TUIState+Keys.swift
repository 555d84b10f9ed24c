import Scenarios

/// Keys: moving the selection, the panes, the filters, help and the inspector; the keys that start,
/// cancel or quit a run return the action for the loop.
extension TUIState {
    /// Handles keys read together (a paste): the characters typed into the filter in a row are added
    /// at once, so the rows are filtered once per batch, not once per character (a 100 KB paste
    /// refiltered every scenario 100,000 times). Returns the actions, in order.
    mutating func handle(_ keys: [Key]) -> [TUIAction] {
        var actions: [TUIAction] = []
        var index = keys.startIndex
        while index < keys.endIndex {
            if isEditingFilter, case .character = keys[index] {
                var typed = ""
                while index < keys.endIndex, case .character(let character) = keys[index] {
                    typed.append(character)
                    index += 1
                }
                // All but the last at once; the last as a key, so that typing ends as it always does.
                if let last = typed.popLast() {
                    if !typed.isEmpty { filterText += typed }
                    if let action = handle(.character(last)) { actions.append(action) }
                }
                continue
            }
            if let action = handle(keys[index]) { actions.append(action) }
            index += 1
        }
        return actions
    }

    /// Handles one key; returns what the loop must do, if anything.
    mutating func handle(_ key: Key) -> TUIAction? {
        message = nil
        if key == .resize { return nil }
        if isEditingFilter, let handled = handleFilterEditing(key) {
            normalizeSelection()
            return handled.action
        }
        if showsHelp {
            showsHelp = false
            if key == .escape || key == .character("?") { return nil }
        }
        if showsInspector, handleInspector(key) { return nil }
        defer { normalizeSelection() }
        switch key {
        case .up, .character("k"): move(by: -1)
        case .down, .character("j"): move(by: 1)
        case .pageUp: move(by: -10)
        case .pageDown: move(by: 10)
        case .home: move(by: -Int.max / 2)
        case .end: move(by: Int.max / 2)
        case .tab:
            focus = focus == .tree ? .steps : .tree
            if focus == .steps, stepSelection == nil { stepSelection = detailStep ?? 0 }
        case .enter: toggleExpansion()
        case .left:
            if case .feature(let file)? = selection { collapsed.insert(file) } else { focus = .tree }
        case .right:
            if case .feature(let file)? = selection { collapsed.remove(file) }
        case .escape:
            if !filterText.isEmpty {
                filterText = ""
            } else {
                focus = .tree
            }
        case .character("a"): filterMode = .all
        case .character("f"): filterMode = filterMode == .failed ? .all : .failed
        case .character("/"):
            isEditingFilter = true
        case .character("?"): showsHelp = true
        case .character("i"):
            if inspectorAvailable {
                showsInspector = true
                inspectorEntity = 0
            } else {
                message =
                    "Nothing to inspect: tear-down empties the store. Run with KIF_SKIP_TEAR_DOWN=1 to inspect it."
            }
        case .character("r"):
            guard canStartRun() else { return nil }
            switch selection {
            case .scenario(let id)?: return .rerun([id])
            case .feature(let file)?: return .rerun(order.filter { $0.file == file })
            case nil: return nil
            }
        case .character("R"):
            guard canStartRun() else { return nil }
            return .rerunAll
        case .character("F"):
            guard canStartRun() else { return nil }
            let failed = failedIDs
            guard !failed.isEmpty else {
                message = "No failed scenario to re-run."
                return nil
            }
            return .rerunFailed(failed)
        case .character("c"):
            guard runState == .running else {
                message = runState == .cancelling ? "Cancelling…" : "No run in progress."
                return nil
            }
            runState = .cancelling
            return .cancel
        case .character("q"):
            return .quit
        default:
            break
        }
        return nil
    }

    private mutating func canStartRun() -> Bool {
        guard !isRunning else {
            message = "A run is in progress: press c to cancel it first."
            return false
        }
        return true
    }

    private struct Handled {
        var action: TUIAction?
    }

    /// Keys while typing the text filter; nil when the key is not the filter's.
    private mutating func handleFilterEditing(_ key: Key) -> Handled? {
        switch key {
        case .escape:
            filterText = ""
            isEditingFilter = false
        case .enter, .tab:
            isEditingFilter = false
        case .backspace:
            if filterText.isEmpty { isEditingFilter = false } else { filterText.removeLast() }
        case .character(let character):
            filterText.append(character)
        default:
            return nil
        }
        return Handled(action: nil)
    }

    /// Keys while the inspector is open; false when the key is not the inspector's.
    private mutating func handleInspector(_ key: Key) -> Bool {
        switch key {
        case .escape, .character("i"):
            showsInspector = false
        case .up, .character("k"):
            inspectorEntity = max(0, inspectorEntity - 1)
        case .down, .character("j"):
            let count = shownInspection?.entities.count ?? 0
            inspectorEntity = min(max(0, count - 1), inspectorEntity + 1)
        default:
            return false
        }
        return true
    }

    private mutating func move(by delta: Int) {
        if focus == .steps, let id = shownScenario, let scenario = scenarios[id], !scenario.steps.isEmpty {
            let current = stepSelection ?? 0
            stepSelection = min(scenario.steps.count - 1, max(0, current.addingReportingOverflow(delta).partialValue))
            return
        }
        guard !rows.isEmpty else { return }
        followsRunning = false
        let current = selection.flatMap { rowIndex[$0] } ?? 0
        let target = min(rows.count - 1, max(0, current.addingReportingOverflow(delta).partialValue))
        selection = rows[target]
        stepSelection = nil
    }

    private mutating func toggleExpansion() {
        switch selection {
        case .feature(let file)?:
            if collapsed.contains(file) { collapsed.remove(file) } else { collapsed.insert(file) }
        case .scenario?:
            focus = focus == .tree ? .steps : .tree
            if focus == .steps, stepSelection == nil { stepSelection = detailStep ?? 0 }
        case nil:
            break
        }
    }
}
