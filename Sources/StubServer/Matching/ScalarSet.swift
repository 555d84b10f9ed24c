/// The characters a class of a ``LinearRegex`` reads: ranges, `\d \w \s`, general categories, classes
/// inside it (`[\d_]`), possibly negated (the instruction that reads it has a bitmap for ASCII).
struct ScalarSet: Sendable, Equatable {
    /// A set of characters named by a property.
    enum Property: Sendable, Equatable {
        case digit
        case word
        case space
        case categories([Unicode.GeneralCategory])

        func holds(for scalar: Unicode.Scalar) -> Bool {
            switch self {
            case .digit: scalar.properties.generalCategory == .decimalNumber
            case .word: LinearRegex.isWord(scalar)
            case .space: scalar.properties.isWhitespace
            case .categories(let categories): categories.contains(scalar.properties.generalCategory)
            }
        }
    }

    indirect enum Member: Sendable, Equatable {
        case range(ClosedRange<Unicode.Scalar>)
        case set(ScalarSet)
    }

    var members: [Member] = []
    var property: Property?
    var negated = false

    init() {}

    init(property: Property, negated: Bool = false) {
        self.property = property
        self.negated = negated
    }

    func contains(_ scalar: Unicode.Scalar) -> Bool {
        var found = property?.holds(for: scalar) ?? false
        if !found {
            found = members.contains { member in
                switch member {
                case .range(let range): range.contains(scalar)
                case .set(let set): set.contains(scalar)
                }
            }
        }
        return found != negated
    }

    /// The general categories of a `\p{…}` name: one (`Lu`) or a group (`L`), `Any` for all; `nil` for
    /// a name that is none of them.
    static func categories(named name: String) -> [Unicode.GeneralCategory]? {
        let groups: [String: [Unicode.GeneralCategory]] = [
            "L": [.uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter],
            "Lu": [.uppercaseLetter], "Ll": [.lowercaseLetter], "Lt": [.titlecaseLetter],
            "Lm": [.modifierLetter], "Lo": [.otherLetter],
            "M": [.nonspacingMark, .spacingMark, .enclosingMark],
            "Mn": [.nonspacingMark], "Mc": [.spacingMark], "Me": [.enclosingMark],
            "N": [.decimalNumber, .letterNumber, .otherNumber],
            "Nd": [.decimalNumber], "Nl": [.letterNumber], "No": [.otherNumber],
            "P": [
                .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
                .initialPunctuation, .finalPunctuation, .otherPunctuation,
            ],
            "Pc": [.connectorPunctuation], "Pd": [.dashPunctuation], "Ps": [.openPunctuation],
            "Pe": [.closePunctuation], "Pi": [.initialPunctuation], "Pf": [.finalPunctuation],
            "Po": [.otherPunctuation],
            "S": [.mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol],
            "Sm": [.mathSymbol], "Sc": [.currencySymbol], "Sk": [.modifierSymbol], "So": [.otherSymbol],
            "Z": [.spaceSeparator, .lineSeparator, .paragraphSeparator],
            "Zs": [.spaceSeparator], "Zl": [.lineSeparator], "Zp": [.paragraphSeparator],
            "C": [.control, .format, .surrogate, .privateUse, .unassigned],
            "Cc": [.control], "Cf": [.format], "Cs": [.surrogate], "Co": [.privateUse], "Cn": [.unassigned],
        ]
        if name == "Any" {
            return groups.values.reduce(into: []) { all, group in
                for category in group where !all.contains(category) { all.append(category) }
            }
        }
        return groups[name]
    }
}
