package import Diagnostics
import ObjectManager
package import Scenarios

/// The built-in step vocabulary of SPEC.md §7, by name, as scenario files use it. Each definition
/// checks its arguments at load time and builds the step with the matching `Step` factory.
package enum BuiltInSteps {
    /// Every built-in definition, including the default set-up and tear-down steps, in registration
    /// order. Each is defined next to its `Step` factory, in the theme files of this folder
    /// (`Step+Environment.swift`, `Step+ObjectManager.swift`, `Step+StubServer.swift`, `Step+Objects.swift`,
    /// `Step+Requests.swift`, `Step+Expectations.swift`; `wait`, `fail` and `succeed` in `BuiltInSteps+Basics.swift`).
    package static var definitions: [StepDefinition] {
        // `.buildingOncePerFile()`: read and checked to be pure builds whose steps keep no argument's
        // location and no state of their own, so a file's repeats of one share a build.
        [
            setUpTestEnvironment, tearDownTestEnvironment,
            stubRoute.buildingOncePerFile(), stubRequest, suspendQueue, stubReachability, cacheResponse,
            createFromFactory, createFromFactories, insertEntity, deleteEntities,
            getObjects.buildingOncePerFile(), objectRequest("post object", .post).buildingOncePerFile(),
            objectRequest("put object", .put).buildingOncePerFile(),
            objectRequest("delete object", .delete).buildingOncePerFile(),
            expectResponse.buildingOncePerFile(), expectEntities.buildingOncePerFile(), expectPendingRequests,
            expectCachedResponse, expectRequest, expectReachability, waitForNotification, waitForRequests,
            wait, fail, succeed,
        ]
    }

    /// A registry of the built-in steps plus the app's own. An app step without a name, or with the
    /// name of a built-in step or of another app step, is an error at the app step's Swift source.
    package static func registry(adding appSteps: [StepDefinition] = []) throws(DiagnosticList) -> StepRegistry {
        var builder = StepRegistry.Builder()
        do {
            try builder.register(contentsOf: definitions)
        } catch {
            preconditionFailure("The built-in steps have distinct names: \(error)")
        }
        var problems: [Diagnostic] = []
        var appNames: [String: StepDefinition] = [:]
        for step in appSteps {
            let key = StepRegistry.normalize(step.name)
            let message: String
            if let other = appNames[key] {
                message = "The app has two steps named '\(step.name)'; the other is at \(other.definedAt.fileAndLine)."
            } else if builder.contains(named: step.name) {
                message = "The app's step '\(step.name)' has the name of a built-in step; give it another name."
            } else {
                do {
                    try builder.register(step)
                    appNames[key] = step
                    continue
                } catch {
                    message = "The app's step '\(step.name)' cannot be registered: \(error)"
                }
            }
            problems.append(Diagnostic(location: step.definedAt, message: message, sourceLine: nil))
        }
        guard problems.isEmpty else { throw DiagnosticList(problems) }
        return builder.build()
    }
}
