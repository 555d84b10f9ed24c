/// Everything that can be wrong with a scenario file's content; rendered to text here and only here
/// (reading and composing the YAML fail with a ``YAMLError``, rendered by YAMLSource).
enum LoadError: Equatable {
    case noSuchPath
    case brokenLink
    case unreadableFolder(String)
    case fileNameNotUTF8
    case emptyFile
    case fileNotMapping
    case unknownFileKey(String, suggestion: String)
    case missingScenarios
    case noScenarios
    case notAList(key: String)
    case notAName(key: String)
    case tagsNotNames
    case scenarioNotMapping
    case missingScenarioName
    case emptyScenarioName
    case unknownScenarioKey(String, scenario: String, suggestion: String)
    case missingSteps(scenario: String)
    case emptySteps(scenario: String)
    case duplicateScenario(String, firstLine: Int)
    case stepNotOneKey(count: Int)
    case stepNotNameOrMapping
    case unknownStep(String, suggestion: String)
    case bindingNotAllowed(step: String, name: String)
    case invalidBindingName(String)
    case unboundName(String, reference: String, suggestion: String)
    case unknownKeyPath(String)
    case unterminatedReference(String)
    case emptyReference(String)
    case argument(String)

    var message: String {
        switch self {
        case .noSuchPath:
            return "No such file or folder."
        case .brokenLink:
            return "Broken symbolic link; nothing is at the place it names."
        case .unreadableFolder(let reason):
            return "Cannot read this folder (\(reason)); its scenario files would be skipped."
        case .fileNameNotUTF8:
            return "File name is not valid UTF-8; rename it to read it as a scenario file."
        case .emptyFile:
            return "Empty scenario file; expected a mapping with 'scenarios'."
        case .fileNotMapping:
            return "A scenario file is a mapping with 'scenarios' (and optionally 'feature', 'tags', 'set up')."
        case .unknownFileKey(let key, let suggestion):
            return "Unknown key '\(key)' in scenario file.\(suggestion)"
        case .missingScenarios:
            return "Missing 'scenarios'; a scenario file needs a list of scenarios."
        case .noScenarios:
            return "'scenarios' is empty."
        case .notAList(let key):
            return "'\(key)' must be a list."
        case .notAName(let key):
            return "'\(key)' must be a name, not a list or mapping."
        case .tagsNotNames:
            return "'tags' must be a list of names, like 'tags: [reviews, slow]'."
        case .scenarioNotMapping:
            return "A scenario is a mapping with 'scenario' (its name) and 'steps'."
        case .missingScenarioName:
            return "Missing 'scenario'; every scenario needs a name."
        case .emptyScenarioName:
            return "Empty scenario name; every scenario needs a name."
        case .unknownScenarioKey(let key, let scenario, let suggestion):
            return "Unknown key '\(key)' in scenario '\(scenario)'.\(suggestion)"
        case .missingSteps(let scenario):
            return "Scenario '\(scenario)' has no 'steps'."
        case .emptySteps(let scenario):
            return "Scenario '\(scenario)' has no steps; 'steps' is empty."
        case .duplicateScenario(let name, let firstLine):
            return "Duplicate scenario name '\(name)'; first used on line \(firstLine)."
        case .stepNotOneKey(let count):
            return "A step is a one-key mapping (its name, then its arguments), but this one has \(count) keys."
        case .stepNotNameOrMapping:
            return "A step is a name, or a one-key mapping from its name to its arguments."
        case .unknownStep(let name, let suggestion):
            return "Unknown step '\(name)'.\(suggestion)"
        case .bindingNotAllowed(let step, let name):
            return "Step '\(step)' does not bind a name; remove 'as: \(name)'."
        case .invalidBindingName(let name):
            return "Invalid name '\(name)' after 'as:'; use letters, digits and '_', starting with a letter."
        case .unboundName(let name, let reference, let suggestion):
            return "Unbound name '\(name)' in '\(reference)'; bind it with 'as: \(name)' on an earlier step."
                + suggestion
        case .unknownKeyPath(let message):
            return message
        case .unterminatedReference(let text):
            return "Unterminated '${' in '\(text)'; write '${name}' or '${name.attribute}'."
        case .emptyReference(let text):
            return "Empty '${}' in '\(text)'; write '${name}' or '${name.attribute}'."
        case .argument(let message):
            return message
        }
    }
}
