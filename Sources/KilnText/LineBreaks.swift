import CUnibreak

/// Line-break opportunities (UAX #14, through libunibreak): right for spaces in Latin text and
/// for ideographs and kana in CJK text, which break between characters without spaces.
public enum LineBreaks {
    public enum Opportunity: Sendable, Equatable {
        case mandatory, allowed, none
    }

    /// One entry per UTF-8 byte of `text`: whether a line may break after that byte.
    public static func opportunities(in text: String, language: String? = nil) -> [Opportunity] {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty else { return [] }
        initialise
        var breaks = [CChar](repeating: 0, count: bytes.count)
        bytes.withUnsafeBufferPointer { utf8 in
            breaks.withUnsafeMutableBufferPointer { out in
                if let language {
                    language.withCString { lang in
                        set_linebreaks_utf8(utf8.baseAddress, bytes.count, lang, out.baseAddress)
                    }
                } else {
                    set_linebreaks_utf8(utf8.baseAddress, bytes.count, nil, out.baseAddress)
                }
            }
        }
        return breaks.map {
            switch Int32($0) {
            case Int32(LINEBREAK_MUSTBREAK): .mandatory
            case Int32(LINEBREAK_ALLOWBREAK): .allowed
            default: .none
            }
        }
    }

    /// libunibreak builds its tables once per process.
    private static let initialise: Void = init_linebreak()
}
