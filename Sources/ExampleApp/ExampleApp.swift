// ExampleApp
