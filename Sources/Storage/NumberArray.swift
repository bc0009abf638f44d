import NIOCore
import PostgresNIO

/// An `int2[]`, `int4[]`, `int8[]` or `float8[]` column read as `Double`s straight from
/// PostgreSQL's binary array format.
///
/// postgres-nio decodes arrays element by element through its generic `PostgresDecodable`
/// machinery, which costs more than the query on the forecast's baselines (a few thousand rows of
/// arrays of a hundred elements), and a cast to `float8[]` in the query costs PostgreSQL a
/// conversion per element; this reads the stored format directly: the number of dimensions, a
/// has-nulls flag, the element type, per dimension its length and lower bound, then each element
/// as a length and its big-endian bytes.
struct NumberArray: PostgresDecodable {
    var values: [Double]

    init<JSONDecoder: PostgresJSONDecoder>(
        from buffer: inout ByteBuffer, type: PostgresDataType, format: PostgresFormat,
        context: PostgresDecodingContext<JSONDecoder>
    ) throws {
        guard format == .binary,
            [.int2Array, .int4Array, .int8Array, .float8Array].contains(type)
        else {
            throw PostgresDecodingError.Code.typeMismatch
        }
        values = try Self.values(in: &buffer)
    }

    /// The elements of a one-dimensional (or empty) binary number array without nulls.
    static func values(in buffer: inout ByteBuffer) throws -> [Double] {
        guard let dimensions = buffer.readInteger(as: Int32.self),
            let hasNulls = buffer.readInteger(as: Int32.self),
            let elementType = buffer.readInteger(as: UInt32.self),
            dimensions <= 1, hasNulls == 0
        else { throw PostgresDecodingError.Code.failure }
        let width: Int32
        switch elementType {
        case PostgresDataType.int2.rawValue: width = 2
        case PostgresDataType.int4.rawValue: width = 4
        case PostgresDataType.int8.rawValue, PostgresDataType.float8.rawValue: width = 8
        default: throw PostgresDecodingError.Code.failure
        }
        guard dimensions == 1 else { return [] }
        guard let count = buffer.readInteger(as: Int32.self), count >= 0,
            buffer.readInteger(as: Int32.self) != nil,
            buffer.readableBytes == Int(count) * Int(4 + width)
        else { throw PostgresDecodingError.Code.failure }
        var values = [Double]()
        values.reserveCapacity(Int(count))
        for _ in 0..<count {
            guard buffer.readInteger(as: Int32.self) == width else { throw PostgresDecodingError.Code.failure }
            let value: Double?
            switch elementType {
            case PostgresDataType.int2.rawValue: value = buffer.readInteger(as: Int16.self).map(Double.init)
            case PostgresDataType.int4.rawValue: value = buffer.readInteger(as: Int32.self).map(Double.init)
            case PostgresDataType.int8.rawValue: value = buffer.readInteger(as: Int64.self).map(Double.init)
            default: value = buffer.readInteger(as: UInt64.self).map(Double.init(bitPattern:))
            }
            guard let value else { throw PostgresDecodingError.Code.failure }
            values.append(value)
        }
        return values
    }
}
