import Diagnostics

/// Everything that can be wrong with a scenario file's content; rendered to text here and only here
/// (reading and composing the YAML fail with a ``YAMLError``, rendered by YAMLSource).
enum LoadError: Equatable {
    /// Nothing at a path; the folder it was looked for in (absolute).
    case noSuchPath(lookedIn: String)
    case brokenLink
    case unreadableFolder(String)
    case fileNameNotUTF8
    case emptyFile
    case fileNotMapping
    case unknownFileKey(String, suggestion: Suggestion)
    case missingScenarios
    case noScenarios
    case notAList(key: String)
    case notAName(key: String)
    case tagsNotNames
    case scenarioNotMapping
    case missingScenarioName
    case emptyScenarioName
    case unknownScenarioKey(String, scenario: String, suggestion: Suggestion)
    case missingSteps(scenario: String)
    case emptySteps(scenario: String)
    case duplicateScenario(String, firstLine: Int)
    case stepNotOneKey(count: Int)
    case stepNotNameOrMapping
    case unknownStep(String, suggestion: Suggestion)
    case bindingNotAllowed(step: String, name: String)
    case invalidBindingName(String)
    case unboundName(String, reference: String, suggestion: Suggestion)
    case unknownKeyPath(String)
    case unterminatedReference(String)
    case emptyReference(String)
    case argument(String)
    case skipWithoutReason
    case unselectableTag(String)
    case skipNotAReason(String)
    case invalidStepTimeout(String)
    case emptyExamples(scenario: String)
    case exampleRowNotMapping
    case invalidColumnName(String)
    case rowMissingColumn(row: Int, column: String, columns: [String])
    case columnShadowsBinding(String)
    case unknownPlaceholder(reference: String, suggestion: String)
    case placeholderNotInName(reference: String, suggestion: String)
    case placeholderNotInSkip(reference: String, suggestion: String)
    case unusedColumn(String, scenario: String)
    case columnWithKeyPath(column: String, reference: String)
    case columnNotScalar(column: String, text: String)
    case outlineTooLarge(nodes: Bool)

    /// The sentence and its suggestion, worked out now.
    var message: String {
        text + (suggestion?.text ?? "")
    }

    /// The did-you-mean that ends the message, for a diagnostic to work out when it is read.
    var suggestion: Suggestion? {
        switch self {
        case .unknownFileKey(_, let suggestion), .unknownScenarioKey(_, _, let suggestion),
            .unknownStep(_, let suggestion), .unboundName(_, _, let suggestion):
            suggestion
        default: nil
        }
    }

    /// The message without its suggestion.
    var text: String {
        switch self {
        case .noSuchPath(let folder):
            return "No such file or folder (looked in \(folder))."
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
        case .unknownFileKey(let key, _):
            return "Unknown key '\(key)' in scenario file."
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
        case .unknownScenarioKey(let key, let scenario, _):
            return "Unknown key '\(key)' in scenario '\(scenario)'."
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
        case .unknownStep(let name, _):
            return "Unknown step '\(name)'."
        case .bindingNotAllowed(let step, let name):
            return "Step '\(step)' does not bind a name; remove 'as: \(name)'."
        case .invalidBindingName(let name):
            return "Invalid name '\(name)' after 'as:'; use letters, digits and '_', starting with a letter."
        case .unboundName(let name, let reference, _):
            return "Unbound name '\(name)' in '\(reference)'; bind it with 'as: \(name)' on an earlier step."
        case .unknownKeyPath(let message):
            return message
        case .unterminatedReference(let text):
            return "Unterminated '${' in '\(text)'; write '${name}' or '${name.attribute}'."
        case .emptyReference(let text):
            return "Empty '${}' in '\(text)'; write '${name}' or '${name.attribute}'."
        case .argument(let message):
            return message
        case .unselectableTag(let tag):
            return
                "Tag '\(tag)' could never be selected with --tag; a tag is one word without spaces or parentheses, and not 'and', 'or' or 'not'."
        case .skipWithoutReason:
            return "'skip' needs a reason, like 'skip: waiting for the new reviews API'."
        case .skipNotAReason(let text):
            return
                "'skip: \(text)' is not a reason; write 'skip: false' to run the scenario, or a reason to skip it, like 'skip: waiting for the new reviews API'."
        case .invalidStepTimeout(let text):
            return
                "Invalid step timeout '\(text)'; write a number of seconds greater than 0 and at most 86400, like 'timeout: 30'."
        case .emptyExamples(let scenario):
            return "Outline '\(scenario)' has no rows; 'examples' is a list of mappings, one per scenario."
        case .exampleRowNotMapping:
            return "An example row is a mapping from column names to values, like '{ to: /422, status: 422 }'."
        case .invalidColumnName(let name):
            return "Invalid column name '\(name)'; use letters, digits and '_', starting with a letter."
        case .rowMissingColumn(let row, let column, let columns):
            return "Row \(row) has no '\(column)'; every row gives every column ("
                + columns.map { "'\($0)'" }.joined(separator: ", ") + ")."
        case .columnShadowsBinding(let name):
            return
                "Column '\(name)' has the name of an object bound with 'as: \(name)'; '${\(name)}' would be the column. Rename one of them."
        case .unknownPlaceholder(let reference, let suggestion):
            return "'\(reference)' is neither a column of 'examples' nor a name bound with 'as:'.\(suggestion)"
        case .placeholderNotInName(let reference, let suggestion):
            return "'\(reference)' in a scenario name must be a column of 'examples'.\(suggestion)"
        case .placeholderNotInSkip(let reference, let suggestion):
            return "'\(reference)' in an outline's 'skip' must be a column of 'examples'.\(suggestion)"
        case .unusedColumn(let column, let scenario):
            return "Column '\(column)' is used by no step of '\(scenario)'; use '${\(column)}' in a step or remove it."
        case .columnWithKeyPath(let column, let reference):
            return "'\(reference)': '\(column)' is a column of 'examples', a plain value; write '${\(column)}'."
        case .columnNotScalar(let column, let text):
            return
                "Column '\(column)' holds a list or mapping, which can only stand alone (\"${\(column)}\"), not inside '\(text)'."
        case .outlineTooLarge(let nodes):
            let limit =
                nodes
                ? "\(OutlineLimits.nodes.groupedDigits) nodes"
                : "\(OutlineLimits.bytes.groupedDigits) bytes of text"
            return
                "Outline rows expand to more than \(limit) in this file (the steps are written out once per row); split the outline into files or use fewer rows or steps."
        }
    }
}
