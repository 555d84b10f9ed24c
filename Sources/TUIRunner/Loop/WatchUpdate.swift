package import Scenarios

/// What `--watch` tells the live runner when watched files change.
package enum WatchUpdate: Sendable, Hashable {
    /// The files loaded: the tree keeps `all` (the selection now), and `run` runs (after the run in
    /// progress, which is cancelled); `changed` names the files, for the footer.
    case reloaded(all: [ScenarioID], run: [ScenarioID], changed: String)
    /// The files cannot be loaded: the diagnostics, with their carets, shown until a reload succeeds.
    case failed(String)
    /// How the files are watched changed (`Watching by polling every 0.3 s: …`): shown in the footer.
    case note(String)
}
