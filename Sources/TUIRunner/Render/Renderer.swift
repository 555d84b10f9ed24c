import Scenarios

/// Draws a ``TUIState`` into a ``CellBuffer`` laid out by ``Layout``.
package struct Renderer: Sendable {
    var glyphs: Glyphs
    var theme: Theme

    /// A renderer with Unicode boxes and colours (what the frame benchmark measures).
    package init() {
        self.init(glyphs: .unicode, theme: .colour)
    }

    init(glyphs: Glyphs = .unicode, theme: Theme = .colour) {
        self.glyphs = glyphs
        self.theme = theme
    }

    /// A new frame of `width` × `height` showing `state`.
    package func render(_ state: TUIState, width: Int, height: Int) -> CellBuffer {
        var buffer = CellBuffer(width: width, height: height)
        switch Layout.make(width: width, height: height) {
        case .tooSmall(let width, let height):
            buffer.put(
                "Terminal too small (\(width)x\(height)): needs \(Layout.minimumWidth)x\(Layout.minimumHeight).",
                x: 0,
                y: 0,
                style: theme.style(.failed)
            )
        case .panes(let panes):
            drawStatus(state, in: panes.status, into: &buffer)
            drawTree(state, in: panes.tree, into: &buffer)
            if let loadError = state.loadError {
                drawLoadError(loadError, in: panes.right, into: &buffer)
            } else if state.showsInspector {
                drawInspector(state, in: panes.right, into: &buffer)
            } else {
                drawSteps(state, in: panes.steps, into: &buffer)
                drawDetail(state, in: panes.detail, into: &buffer)
            }
            if state.showsHelp { drawHelp(in: panes.right, into: &buffer) }
            drawFooter(state, in: panes.footer, into: &buffer)
        }
        return buffer
    }

    // MARK: Status line

    private func drawStatus(_ state: TUIState, in rect: Rect, into buffer: inout CellBuffer) {
        let bar = theme.style(.statusBar)
        buffer.fill(rect, style: bar)
        let counts = state.counts
        let stateText: String =
            switch state.runState {
            case .idle: "waiting"
            case .running: "running"
            case .cancelling: "cancelling"
            case .finished: "finished"
            case .cancelled: "cancelled"
            }
        let run = state.runCount > 1 ? "  run \(state.runCount)" : ""
        let note = state.statusNote.map { "  \($0)" } ?? ""
        var text =
            " \(counts.done)/\(counts.total)  \(counts.failed) failed  \(Format.clock(state.elapsed))  \(stateText)\(run)\(note) "
        let barWidth = rect.width - text.count - 16
        if barWidth >= 5 {
            let filled = counts.total == 0 ? 0 : barWidth * counts.done / counts.total
            text +=
                "[" + String(repeating: glyphs.barFull, count: filled)
                + String(repeating: glyphs.barEmpty, count: barWidth - filled) + "]"
        }
        buffer.put(" scenario-run", x: rect.x, y: rect.y, style: Style(bold: true, reverse: true), limit: rect.width)
        buffer.put(text, x: rect.x + 13, y: rect.y, style: bar, limit: rect.width - 13)
        if counts.failed > 0 {
            let failedText = "\(counts.failed) failed"
            if let range = text.range(of: failedText) {
                let offset = text.distance(from: text.startIndex, to: range.lowerBound)
                var style = bar
                if theme.colours { style.colour = .red }
                style.bold = true
                buffer.put(
                    failedText,
                    x: rect.x + 13 + offset,
                    y: rect.y,
                    style: style,
                    limit: rect.width - 13 - offset
                )
            }
        }
    }

    // MARK: Tree

    private func drawTree(_ state: TUIState, in rect: Rect, into buffer: inout CellBuffer) {
        var title = state.filterMode == .failed ? "Scenarios (Failed)" : "Scenarios (All)"
        if !state.filterText.isEmpty { title += " /\(state.filterText)" }
        drawBox(rect, title: title, focused: state.focus == .tree && !state.showsInspector, into: &buffer)
        let inner = rect.inner
        let rows = state.rows
        guard !rows.isEmpty else {
            let empty =
                !state.order.isEmpty
                ? "No scenario matches the filter."
                : state.runCount > 0 ? "No scenario to run." : "Loading…"
            buffer.put(empty, x: inner.x + 1, y: inner.y, style: theme.style(.dim), limit: inner.width - 1)
            return
        }
        let selected = state.selection.flatMap { state.index(of: $0) }
        let countsByFile = state.countsByFile
        let offset = Self.scrollOffset(selected: selected ?? 0, count: rows.count, height: inner.height)
        for (line, index) in (offset..<min(rows.count, offset + inner.height)).enumerated() {
            let y = inner.y + line
            switch rows[index] {
            case .feature(let file):
                let counts = countsByFile[file] ?? TUIState.Counts()
                let marker = state.collapsed.contains(file) ? glyphs.collapsed : glyphs.expanded
                var countText = " \(counts.done)/\(counts.total)"
                if counts.failed > 0 { countText += ", \(counts.failed) failed" }
                let name = state.featureNames[file] ?? file
                let written = buffer.put(
                    "\(marker) \(name)",
                    x: inner.x,
                    y: y,
                    style: theme.style(.title),
                    limit: inner.width - countText.count
                )
                buffer.put(
                    countText,
                    x: inner.x + written,
                    y: y,
                    style: counts.failed > 0 ? theme.style(.failed) : theme.style(.dim),
                    limit: inner.width - written
                )
            case .scenario(let id):
                guard let scenario = state.scenarios[id] else { continue }
                var time = scenario.duration.map { Format.short($0) } ?? ""
                // A scenario that passed only on a retry keeps its badge for the session.
                if state.flaky[id] != nil { time = "flaky" + (time.isEmpty ? "" : " " + time) }
                // A failure is ✗ whatever else it did; a scenario that passed but leaked (`leaks: warn`) shows ⚠.
                let leaked = scenario.leakStep != nil && scenario.status != .failed
                let glyph = leaked ? glyphs.leaked : glyphs.status(scenario.status)
                let style = leaked ? theme.style(.warned) : theme.style(for: scenario.status)
                buffer.put(String(glyph), x: inner.x + 2, y: y, style: style, limit: inner.width - 2)
                let nameWidth = inner.width - 4 - (time.isEmpty ? 0 : time.count + 1)
                buffer.put(
                    Format.truncate(id.name, to: nameWidth, ellipsis: glyphs.ellipsis),
                    x: inner.x + 4,
                    y: y,
                    limit: nameWidth
                )
                if !time.isEmpty {
                    buffer.put(time, x: inner.maxX - time.count, y: y, style: theme.style(.dim), limit: time.count)
                }
            }
            if index == selected {
                let focused = state.focus == .tree
                buffer.restyle(Rect(x: inner.x, y: y, width: inner.width, height: 1)) { style in
                    if focused { style.reverse = true } else { style.underline = true }
                }
            }
        }
    }

    /// The first row shown so that the selection stays in view (kept near the middle once scrolling).
    static func scrollOffset(selected: Int, count: Int, height: Int) -> Int {
        guard count > height, height > 0 else { return 0 }
        return min(max(0, selected - height / 2), count - height)
    }

    // MARK: Steps

    private func drawSteps(_ state: TUIState, in rect: Rect, into buffer: inout CellBuffer) {
        let id = state.shownScenario
        drawBox(rect, title: id.map { "Steps: \($0.name)" } ?? "Steps", focused: state.focus == .steps, into: &buffer)
        let inner = rect.inner
        guard let id, let scenario = state.scenarios[id] else {
            buffer.put("Select a scenario.", x: inner.x + 1, y: inner.y, style: theme.style(.dim), limit: inner.width)
            return
        }
        let steps = scenario.steps
        let selected = state.focus == .steps ? state.stepSelection : nil
        let anchor = selected ?? steps.firstIndex { $0.status == .running } ?? 0
        let offset = Self.scrollOffset(selected: anchor, count: steps.count, height: inner.height)
        for (line, index) in (offset..<min(steps.count, offset + inner.height)).enumerated() {
            let step = steps[index]
            let y = inner.y + line
            buffer.put(String(glyphs.status(step.status)), x: inner.x + 1, y: y, style: theme.style(for: step.status))
            let phase: String =
                switch step.planned.phase {
                case .setUp: "set-up "
                case .steps: ""
                case .tearDown, .leakCheck: "tear-down "
                }
            var trailing = ""
            if step.status == .running, let waited = step.waited {
                trailing = "waiting \(Format.short(waited))" + (step.waitReason.map { ": \($0)" } ?? "")
            } else if step.status == .skipped {
                trailing = "skipped"
            } else if let duration = step.duration {
                trailing = Format.short(duration)
            }
            let available = inner.width - 3
            let trailingWidth = min(trailing.count, max(0, available / 2))
            var x = inner.x + 3
            x += buffer.put(phase, x: x, y: y, style: theme.style(.dim), limit: available)
            let descriptionWidth = inner.maxX - x - (trailingWidth > 0 ? trailingWidth + 1 : 0)
            buffer.put(
                Format.truncate(step.planned.description, to: descriptionWidth, ellipsis: glyphs.ellipsis),
                x: x,
                y: y,
                limit: descriptionWidth
            )
            if trailingWidth > 0 {
                let style = step.status == .running ? theme.style(.running) : theme.style(.dim)
                buffer.put(
                    Format.truncate(trailing, to: trailingWidth, ellipsis: glyphs.ellipsis),
                    x: inner.maxX - trailingWidth,
                    y: y,
                    style: style,
                    limit: trailingWidth
                )
            }
            if index == selected {
                buffer.restyle(Rect(x: inner.x, y: y, width: inner.width, height: 1)) { $0.reverse = true }
            }
        }
    }

    // MARK: Detail

    private func drawDetail(_ state: TUIState, in rect: Rect, into buffer: inout CellBuffer) {
        drawBox(rect, title: "Detail", focused: false, into: &buffer)
        let inner = rect.inner
        var lines: [(String, Style)] = []
        if let id = state.shownScenario, let scenario = state.scenarios[id] {
            if let index = state.detailStep, index == scenario.leakStep {
                lines.append(("\(glyphs.failed) \(scenario.steps[index].planned.description)", theme.style(.failed)))
                lines += leakLines(scenario.leaks, width: inner.width, style: theme.style(.failed))
            } else if let index = state.detailStep {
                let step = scenario.steps[index]
                lines.append(("\(glyphs.failed) \(step.planned.description)", theme.style(.failed)))
                for line in Format.wrap(step.failure ?? "Failed.", width: inner.width - 1) {
                    lines.append((line, theme.style(.failed)))
                }
                if let location = step.failureLocation ?? step.planned.location {
                    lines.append(("at \(location.fileAndLine)", theme.style(.dim)))
                }
            } else {
                let summary: String =
                    switch scenario.status {
                    case .pending: "Pending."
                    case .running: "Running…"
                    case .passed:
                        "Passed in \(scenario.duration.map(Format.short) ?? "?")."
                            + (state.flaky[id].map { " Flaky: \($0.failed) of \($0.tries) tries failed." } ?? "")
                    case .failed: "Failed."
                    case .skipped: scenario.planned.skip.map { "Skipped: \($0)" } ?? "Skipped."
                    case .warned: "Passed with a warning."
                    }
                lines.append((summary, theme.style(for: scenario.status)))
                lines.append(("\(scenario.planned.location.fileAndLine)", theme.style(.dim)))
                if let index = scenario.leakStep {
                    lines.append(
                        (
                            "\(glyphs.leaked) \(scenario.steps[index].planned.description) (leaks: warn)",
                            theme.style(.warned)
                        )
                    )
                    lines += leakLines(scenario.leaks, width: inner.width, style: theme.style(.warned))
                }
            }
            if !scenario.logs.isEmpty {
                lines.append(("Log:", theme.style(.title)))
                for log in scenario.logs {
                    for line in Format.wrap(log, width: inner.width - 3) { lines.append(("  " + line, .plain)) }
                }
            }
        } else {
            lines.append(("Select a scenario to see its failure and log.", theme.style(.dim)))
        }
        // Keep the end of a long log in view.
        let overflow = max(0, lines.count - inner.height)
        let keep = lines.prefix(4)
        let shown = overflow > 0 ? Array(keep) + Array(lines.suffix(inner.height - keep.count)) : lines
        for (line, entry) in shown.prefix(inner.height).enumerated() {
            buffer.put(entry.0, x: inner.x + 1, y: inner.y + line, style: entry.1, limit: inner.width - 1)
        }
    }

    /// The leaks `check for leaks` found, one to a line (wrapped, continuation lines indented).
    private func leakLines(_ leaks: [String], width: Int, style: Style) -> [(String, Style)] {
        var lines: [(String, Style)] = []
        for leak in leaks {
            for (index, line) in Format.wrap(leak, width: width - 5).enumerated() {
                lines.append(((index == 0 ? "  \(glyphs.bullet) " : "    ") + line, style))
            }
        }
        return lines
    }

    // MARK: Inspector

    /// The diagnostics of files `--watch` could not load, line for line (a caret stays under its column).
    private func drawLoadError(_ text: String, in rect: Rect, into buffer: inout CellBuffer) {
        drawBox(rect, title: "Load error: fix the file to run again", focused: true, into: &buffer)
        let inner = rect.inner
        // A message wraps; a source line and its caret are cut, never wrapped, so the caret stays under
        // its column.
        var lines: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lines += line.contains(": error: ") ? Format.wrap(String(line), width: inner.width - 1) : [String(line)]
        }
        for (index, line) in lines.prefix(inner.height).enumerated() {
            buffer.put(line, x: inner.x + 1, y: inner.y + index, style: theme.style(.failed), limit: inner.width - 1)
        }
    }

    private func drawInspector(_ state: TUIState, in rect: Rect, into buffer: inout CellBuffer) {
        let id = state.shownScenario
        drawBox(rect, title: "Inspector" + (id.map { ": \($0.name)" } ?? ""), focused: true, into: &buffer)
        let inner = rect.inner
        var lines: [(String, Style)] = []
        guard let snapshot = state.shownInspection else {
            buffer.put(
                "No state kept for this scenario: it has not finished in this run.",
                x: inner.x + 1,
                y: inner.y,
                style: theme.style(.dim),
                limit: inner.width - 1
            )
            return
        }
        lines.append(("Routes (\(snapshot.routes.filter(\.stubbed).count) stubbed):", theme.style(.title)))
        for route in snapshot.routes {
            lines.append(
                (
                    (route.stubbed ? "* " : "  ") + route.text + (route.stubbed ? "  (stubbed)" : ""),
                    route.stubbed ? theme.style(.stubbed) : .plain
                )
            )
        }
        let pending =
            snapshot.pendingRequests.isEmpty
            ? "nothing pending"
            : "\(snapshot.pendingRequests.count) pending: " + snapshot.pendingRequests.joined(separator: ", ")
        lines.append(
            ("Queue: " + (snapshot.queueSuspended ? "suspended" : "running") + ", " + pending, theme.style(.title))
        )
        lines.append(("Reachability: \(snapshot.reachability)", theme.style(.title)))
        lines.append(
            (
                "Cache: \(snapshot.cachedResponses.count) response\(snapshot.cachedResponses.count == 1 ? "" : "s")",
                theme.style(.title)
            )
        )
        for response in snapshot.cachedResponses { lines.append(("  " + response, .plain)) }
        lines.append(("Entities (j/k to choose):", theme.style(.title)))
        let selected = min(state.inspectorEntity, max(0, snapshot.entities.count - 1))
        for (index, entity) in snapshot.entities.enumerated() {
            let marker = index == selected ? "> " : "  "
            lines.append(
                (
                    marker + "\(entity.name): \(entity.count)",
                    index == selected ? Style(bold: true, reverse: true) : .plain
                )
            )
        }
        if snapshot.entities.indices.contains(selected) {
            let entity = snapshot.entities[selected]
            lines.append(("Rows of \(entity.name):", theme.style(.title)))
            if entity.rows.isEmpty { lines.append(("  (none)", theme.style(.dim))) }
            for row in entity.rows { lines.append(("  " + row, .plain)) }
        }
        for (line, entry) in lines.prefix(inner.height).enumerated() {
            buffer.put(entry.0, x: inner.x + 1, y: inner.y + line, style: entry.1, limit: inner.width - 1)
        }
    }

    // MARK: Help and footer

    static let helpLines = [
        "↑↓ / j k   move",
        "Enter      collapse a feature / steps",
        "Tab        tree or steps pane",
        "a / f      All / Failed",
        "/          text filter (Esc clears)",
        "r          re-run selection",
        "R          re-run all",
        "F          re-run the failed ones",
        "c          cancel (tear-down runs)",
        "i          inspector (skip tear-down)",
        "q          quit",
    ]

    private func drawHelp(in rect: Rect, into buffer: inout CellBuffer) {
        let height = min(rect.height, Self.helpLines.count + 2)
        let box = Rect(x: rect.x, y: rect.y, width: rect.width, height: height)
        buffer.fill(box)
        drawBox(box, title: "Keys (any key closes)", focused: true, into: &buffer)
        for (line, text) in Self.helpLines.prefix(box.inner.height).enumerated() {
            let shown = glyphs == .unicode ? text : text.replacingOccurrences(of: "↑↓ / j k", with: "j k     ")
            buffer.put(shown, x: box.inner.x + 1, y: box.inner.y + line, limit: box.inner.width - 1)
        }
    }

    private func drawFooter(_ state: TUIState, in rect: Rect, into buffer: inout CellBuffer) {
        if state.isEditingFilter {
            buffer.put(
                "Filter: /\(state.filterText)_   Enter keeps it, Esc clears it",
                x: rect.x,
                y: rect.y,
                style: theme.style(.title),
                limit: rect.width
            )
            return
        }
        if let message = state.message {
            buffer.put(message, x: rect.x, y: rect.y, style: theme.style(.skipped), limit: rect.width)
            return
        }
        var keys: [(String, String)] = [
            (glyphs == .unicode ? "↑↓" : "jk", "move"), ("Enter", "expand"), ("Tab", "pane"), ("a/f", "all/failed"),
            ("/", "filter"), ("r/R/F", "re-run"), ("c", "cancel"), ("q", "quit"), ("?", "help"),
        ]
        if state.inspectorAvailable { keys.append(("i", "inspect")) }
        var x = rect.x
        for (key, label) in keys {
            guard x + key.count + label.count + 2 <= rect.maxX else { break }
            x += buffer.put(key, x: x, y: rect.y, style: theme.style(.key))
            x += buffer.put(" \(label)  ", x: x, y: rect.y, style: .plain, limit: rect.maxX - x)
        }
    }

    // MARK: Boxes

    private func drawBox(_ rect: Rect, title: String, focused: Bool, into buffer: inout CellBuffer) {
        guard rect.width >= 2, rect.height >= 2 else { return }
        let style = focused ? Style(colour: theme.colours ? .cyan : .default, bold: true) : theme.style(.border)
        for x in (rect.x + 1)..<(rect.maxX - 1) {
            buffer[x, rect.y] = Cell(character: glyphs.horizontal, style: style)
            buffer[x, rect.maxY - 1] = Cell(character: glyphs.horizontal, style: style)
        }
        for y in (rect.y + 1)..<(rect.maxY - 1) {
            buffer[rect.x, y] = Cell(character: glyphs.vertical, style: style)
            buffer[rect.maxX - 1, y] = Cell(character: glyphs.vertical, style: style)
        }
        buffer[rect.x, rect.y] = Cell(character: glyphs.topLeft, style: style)
        buffer[rect.maxX - 1, rect.y] = Cell(character: glyphs.topRight, style: style)
        buffer[rect.x, rect.maxY - 1] = Cell(character: glyphs.bottomLeft, style: style)
        buffer[rect.maxX - 1, rect.maxY - 1] = Cell(character: glyphs.bottomRight, style: style)
        let titleWidth = rect.width - 4
        if titleWidth > 0 {
            buffer.put(
                " " + Format.truncate(title, to: titleWidth - 2, ellipsis: glyphs.ellipsis) + " ",
                x: rect.x + 1,
                y: rect.y,
                style: Style(colour: style.colour, bold: true),
                limit: titleWidth
            )
        }
    }
}
