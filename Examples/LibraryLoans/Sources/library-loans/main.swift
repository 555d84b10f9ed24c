import LibraryLoans
import ScenarioRunCLI

ScenarioRun.main(app: LibraryLoans.appUnderTest)
