import LibraryLoans
import ScenarioRunCLI

ScenarioRun.run(app: LibraryLoans.appUnderTest)
