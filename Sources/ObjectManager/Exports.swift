// The values an app's code names beside the object manager — `JSONValue`, `HTTPHeader`, `HTTPMethod`,
// `PathPattern` — live in `SharedValues`, below both the object manager and the stub server; importing
// `ObjectManager` brings them along, as Hummingbird re-exports HTTPTypes (DECISIONS.md 65).
@_exported public import SharedValues
