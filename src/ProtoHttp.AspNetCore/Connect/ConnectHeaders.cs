namespace ProtoHttp.AspNetCore.Connect;

/// <summary>Header names of the Connect protocol that more than one class uses.</summary>
internal static class ConnectHeaders
{
    /// <summary>A unary response's trailers travel as headers with this prefix.</summary>
    public const string TrailerPrefix = "trailer-";
}
