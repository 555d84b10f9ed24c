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
        // Runs of bytes that need no escape are copied at once: a 4 MB failure reason crosses the worker
        // pipe as one of these strings.
        var string = string
        let copied = string.withUTF8 { bytes -> Bool in
            guard !bytes.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else {
                return false
            }
            out.append(contentsOf: bytes)
            return true
        }
        if copied {
            out.append(UInt8(ascii: "\""))
            return
        }
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): out.append(contentsOf: #"\\"#.utf8)
            case 0x0A: out.append(contentsOf: #"\n"#.utf8)
            case 0x0D: out.append(contentsOf: #"\r"#.utf8)
            case 0x09: out.append(contentsOf: #"\t"#.utf8)
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out.append(contentsOf: #"\u00"#.utf8)
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0xF)])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
