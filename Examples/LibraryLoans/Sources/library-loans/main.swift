import LibraryLoans
import ScenarioRunCLI

await ScenarioRun.main(app: LibraryLoans.appUnderTest)
