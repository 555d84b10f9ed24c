// ScenarioTesting
