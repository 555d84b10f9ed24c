/// The limits every YAML file the package reads is held to — scenario files, `scenario-run.yml` and
/// `server.yml` alike — so that hostile input gets a located error instead of a crash, a hang or
/// unbounded memory. Each is checked in one place: the file's size and bytes by ``YAMLText``, nesting and
/// aliases by ``YAMLComposer``.
package enum YAMLLimits {
    /// The largest file read, in bytes (64 MB); checked before reading, reported at line 1, column 1.
    package static let maxFileBytes = 64 * 1024 * 1024

    /// The deepest nesting of lists and mappings; the node that would go one level deeper is reported,
    /// and nothing deeper is ever composed (so nothing recurses further either).
    package static let maxDepth = 256

    /// The most nodes the aliases of one file may expand to, all together (each alias counts every
    /// node of what its anchor names); the alias that would go over is reported. This bounds "billion
    /// laughs" documents, whose aliases double at every level, while small anchors and aliases still work.
    package static let maxAliasNodes = 100_000

    /// The most bytes of scalar text the aliases of one file may expand to, all together (each alias
    /// counts every byte of the scalars under its anchor): 16 MiB. Counting nodes alone let one large
    /// scalar aliased a few thousand times stand for gigabytes once the steps made text of it.
    package static let maxAliasBytes = 16 * 1024 * 1024
}
