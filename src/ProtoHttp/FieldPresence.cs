namespace ProtoHttp;

/// <summary>How a text writer decides whether a singular field is written: as JsonFormatter and the binary encoding do.</summary>
internal enum FieldPresence
{
    /// <summary>Proto3 implicit presence: written unless it holds the type's default.</summary>
    NotDefault,

    /// <summary>Explicit presence on a scalar (proto2, proto3 optional, oneof member): written when set.</summary>
    HasValue,

    /// <summary>A message or group: written when not null.</summary>
    NotNull,
}
