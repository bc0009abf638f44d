import Primitives

/// Rows in the text format of `COPY … FROM STDIN`: columns separated by a tab, each row ended by
/// a newline, `\N` for null, and a backslash before each backslash, tab, newline and carriage
/// return inside a text value (PostgreSQL's "COPY", "Text Format").
///
/// Bytes, not a `String`: a plan's tens of thousands of rows of nineteen columns are formatted
/// while PostgreSQL stores the ones before them.
struct CopyTextRows {
    private(set) var bytes: [UInt8] = []
    /// Whether the next column is its row's first (no tab before it).
    private var rowStart = true

    init(capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    var isEmpty: Bool { bytes.isEmpty }

    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        rowStart = true
    }

    /// Ends the current row.
    mutating func endRow() {
        bytes.append(UInt8(ascii: "\n"))
        rowStart = true
    }

    mutating func text(_ value: String?) {
        separate()
        guard let value else { return null() }
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            default: bytes.append(byte)
            }
        }
    }

    /// A `float8`, in the shortest form that reads back as the same value (`inf`, `-inf` and
    /// `nan` are PostgreSQL's spellings too).
    mutating func double(_ value: Double?) {
        separate()
        guard let value else { return null() }
        bytes.append(contentsOf: value.description.utf8)
    }

    mutating func integer(_ value: Int?) {
        separate()
        guard let value else { return null() }
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        digits(value.magnitude, width: 1)
    }

    /// A `timestamptz` of `seconds` since 1970-01-01 UTC, as `YYYY-MM-DD HH:MM:SS+00`.
    mutating func timestamp(epochSeconds seconds: Int) {
        separate()
        let day = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let time = seconds - day * 86_400
        let (year, month, dayOfMonth) = CivilDays.civil(dayNumber: day)
        if year < 0 { bytes.append(UInt8(ascii: "-")) }
        digits(UInt(year.magnitude), width: 4)
        bytes.append(UInt8(ascii: "-"))
        digits(UInt(month), width: 2)
        bytes.append(UInt8(ascii: "-"))
        digits(UInt(dayOfMonth), width: 2)
        bytes.append(UInt8(ascii: " "))
        digits(UInt(time / 3600), width: 2)
        bytes.append(UInt8(ascii: ":"))
        digits(UInt(time / 60 % 60), width: 2)
        bytes.append(UInt8(ascii: ":"))
        digits(UInt(time % 60), width: 2)
        bytes.append(contentsOf: "+00".utf8)
    }

    private mutating func separate() {
        if rowStart {
            rowStart = false
        } else {
            bytes.append(0x09)
        }
    }

    private mutating func null() {
        bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "N")])
    }

    private mutating func digits(_ value: UInt, width: Int) {
        DecimalDigits.append(value, width: width, to: &bytes)
    }
}
