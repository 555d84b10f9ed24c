import Mustache

/// Stands in for every value while a template is rendered once at load time, recording each name the
/// template renders or opens a section on, so unknown names are errors before anything runs.
final class TemplateProbe: MustacheParent, MustacheCustomRenderable {
    private let path: [String]
    private let recorder: Recorder

    /// The names recorded, in first-use order, each once.
    var recorded: [[String]] { recorder.names }

    convenience init() {
        self.init(path: [], recorder: Recorder())
    }

    private init(path: [String], recorder: Recorder) {
        self.path = path
        self.recorder = recorder
    }

    func child(named name: String) -> Any? {
        TemplateProbe(path: path + [name], recorder: recorder)
    }

    var renderText: String {
        recorder.record(path)
        return ""
    }

    var isNull: Bool {
        recorder.record(path)
        return false
    }

    private final class Recorder {
        var names: [[String]] = []

        func record(_ name: [String]) {
            if !name.isEmpty, !names.contains(name) { names.append(name) }
        }
    }
}
