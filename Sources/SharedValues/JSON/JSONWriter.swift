/// Writes JSON text without `JSONEncoder`: keys sorted or in dictionary order, `/` unescaped.
enum JSONWriter {
    static func write(_ value: JSONValue, sortedKeys: Bool, into out: inout [UInt8]) {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let bool): out.append(contentsOf: (bool ? "true" : "false").utf8)
        case .int(let int): out.append(contentsOf: String(int).utf8)
        case .double(let double):
            if !double.isFinite {
                out.append(contentsOf: "null".utf8)
            } else if double == double.rounded(), abs(double) < 1e15 {
                out.append(contentsOf: String(Int(double)).utf8)
            } else {
                out.append(contentsOf: "\(double)".utf8)
            }
        case .string(let string): writeString(string, into: &out)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (position, element) in elements.enumerated() {
                if position > 0 { out.append(UInt8(ascii: ",")) }
                write(element, sortedKeys: sortedKeys, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            let keys = sortedKeys ? members.keys.sorted() : Array(members.keys)
            for (position, key) in keys.enumerated() {
                if position > 0 { out.append(UInt8(ascii: ",")) }
                writeString(key, into: &out)
                out.append(UInt8(ascii: ":"))
                if let member = members[key] { write(member, sortedKeys: sortedKeys, into: &out) }
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    static func writeString(_ string: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        // Runs of bytes that need no escape are copied at once (a 4 MB failure reason crosses the worker
        // pipe as one of these strings; a JSON body in a report has a quote every few bytes).
        var string = string
        string.withUTF8 { bytes in
            var run = 0
            for index in bytes.indices {
                let byte = bytes[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                if run < index { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<index])) }
                run = index + 1
                out.append(UInt8(ascii: "\\"))
                switch byte {
                case 0x0A: out.append(UInt8(ascii: "n"))
                case 0x0D: out.append(UInt8(ascii: "r"))
                case 0x09: out.append(UInt8(ascii: "t"))
                case 0..<0x20:
                    out.append(contentsOf: "u00".utf8)
                    out.append(hexDigit(byte >> 4))
                    out.append(hexDigit(byte & 0xF))
                default: out.append(byte)
                }
            }
            if run < bytes.count { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run...])) }
        }
        out.append(UInt8(ascii: "\""))
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }
}
