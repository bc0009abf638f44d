import NIOCore
import PostgresNIO

/// A `float8[]` column read straight from PostgreSQL's binary array format.
///
/// postgres-nio decodes arrays element by element through its generic `PostgresDecodable`
/// machinery, which costs more than the query on the forecast's baselines (a few thousand rows of
/// arrays of a hundred elements); this reads the format directly: the number of dimensions, a
/// has-nulls flag, the element type, per dimension its length and lower bound, then each element
/// as a length and 8 big-endian bytes.
struct Float8Array: PostgresDecodable {
    var values: [Double]

    init<JSONDecoder: PostgresJSONDecoder>(
        from buffer: inout ByteBuffer, type: PostgresDataType, format: PostgresFormat,
        context: PostgresDecodingContext<JSONDecoder>
    ) throws {
        guard format == .binary, type == .float8Array else {
            throw PostgresDecodingError.Code.typeMismatch
        }
        values = try Self.values(in: &buffer)
    }

    /// The elements of a one-dimensional (or empty) binary `float8[]` without nulls.
    static func values(in buffer: inout ByteBuffer) throws -> [Double] {
        guard let dimensions = buffer.readInteger(as: Int32.self),
            let hasNulls = buffer.readInteger(as: Int32.self),
            let elementType = buffer.readInteger(as: UInt32.self),
            dimensions <= 1, hasNulls == 0, elementType == PostgresDataType.float8.rawValue
        else { throw PostgresDecodingError.Code.failure }
        guard dimensions == 1 else { return [] }
        guard let count = buffer.readInteger(as: Int32.self), count >= 0,
            buffer.readInteger(as: Int32.self) != nil,
            buffer.readableBytes == Int(count) * 12
        else { throw PostgresDecodingError.Code.failure }
        var values = [Double]()
        values.reserveCapacity(Int(count))
        for _ in 0..<count {
            guard buffer.readInteger(as: Int32.self) == 8, let bits = buffer.readInteger(as: UInt64.self) else {
                throw PostgresDecodingError.Code.failure
            }
            values.append(Double(bitPattern: bits))
        }
        return values
    }
}
