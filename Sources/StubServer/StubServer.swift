// StubServer
