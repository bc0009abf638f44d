import NIOCore
import PostgresNIO
import Primitives

/// A ``CivilDate`` as PostgreSQL's `date`: bound and read in the binary format, the days since
/// 2000-01-01 as a 4-byte integer.
///
/// Staffing's dates reach the SQL binds as dates, never as text to parse again; `infinity` and
/// `-infinity` are refused when read.
struct SQLDate: PostgresEncodable, PostgresDecodable, Hashable {
    /// PostgreSQL's epoch, 2000-01-01, as days since 1970-01-01.
    static let epoch = 10_957

    var date: CivilDate

    init(_ date: CivilDate) {
        self.date = date
    }

    static var psqlType: PostgresDataType { .date }
    static var psqlFormat: PostgresFormat { .binary }

    func encode<JSONEncoder: PostgresJSONEncoder>(
        into byteBuffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>
    ) throws {
        byteBuffer.writeInteger(Int32(date.dayNumber - Self.epoch))
    }

    init<JSONDecoder: PostgresJSONDecoder>(
        from buffer: inout ByteBuffer, type: PostgresDataType, format: PostgresFormat,
        context: PostgresDecodingContext<JSONDecoder>
    ) throws {
        guard type == .date, format == .binary else { throw PostgresDecodingError.Code.typeMismatch }
        guard let days = buffer.readInteger(as: Int32.self), days != .max, days != .min else {
            throw PostgresDecodingError.Code.failure
        }
        date = CivilDate(dayNumber: Int(days) + Self.epoch)
    }
}
