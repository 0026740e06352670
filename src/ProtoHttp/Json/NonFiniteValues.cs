using Google.Protobuf.WellKnownTypes;

namespace ProtoHttp.Json;

/// <summary>
/// A google.protobuf.Value number must be finite to have a JSON form (the protobuf JSON spec; JsonFormatter writes
/// NaN and Infinity as strings, which read back as strings). Checked before such a value is written.
/// </summary>
internal static class NonFiniteValues
{
    /// <exception cref="InvalidOperationException">A Value, at any depth of a Struct or ListValue, holds NaN or an infinity.</exception>
    public static void ThrowIfAny(object value)
    {
        switch (value)
        {
            case Value { KindCase: Value.KindOneofCase.NumberValue } number when !double.IsFinite(number.NumberValue):
                throw new InvalidOperationException($"A google.protobuf.Value holds {number.NumberValue}, which JSON cannot carry.");
            case Value { KindCase: Value.KindOneofCase.StructValue } structValue:
                ThrowIfAny(structValue.StructValue);
                break;
            case Value { KindCase: Value.KindOneofCase.ListValue } listValue:
                ThrowIfAny(listValue.ListValue);
                break;
            case Struct structure:
                foreach (var field in structure.Fields.Values)
                {
                    ThrowIfAny(field);
                }

                break;
            case ListValue list:
                foreach (var item in list.Values)
                {
                    ThrowIfAny(item);
                }

                break;
        }
    }
}
