using Microsoft.AspNetCore.Http;

namespace ProtoHttp.AspNetCore.Pipeline;

/// <summary>
/// Routing matches paths case-insensitively, but proto names are exact: a route's handler runs only for a path that
/// ends in its exact spelling, and any other spelling is a method the server does not have, answered as its protocol
/// answers one.
/// </summary>
internal static class ExactPath
{
    /// <summary>
    /// Runs <paramref name="handler"/> for a path that ends with <paramref name="tail"/> as written (the method's name, or
    /// the whole path where the service's name is exact too), <paramref name="unknown"/> for any other spelling.
    /// </summary>
    public static RequestDelegate Guard(string tail, RequestDelegate handler, RequestDelegate unknown) =>
        context => context.Request.Path.Value!.EndsWith(tail, StringComparison.Ordinal) ? handler(context) : unknown(context);
}
