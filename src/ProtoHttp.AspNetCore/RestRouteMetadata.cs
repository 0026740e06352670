namespace ProtoHttp.AspNetCore;

/// <summary>
/// Endpoint metadata on each REST route mapped from a <c>google.api.http</c> rule (docs/rest.md), beside its
/// <see cref="ProtoHttpMethodMetadata"/>: the binding the route serves, so a description (the OpenAPI document, the
/// explorer) can name its path parameters, its query parameters and its body.
/// </summary>
public sealed class RestRouteMetadata
{
    internal RestRouteMetadata(string verb, string template, string body, string responseBody, IReadOnlyDictionary<string, string> pathParameters, IReadOnlyList<string> boundFields)
    {
        Verb = verb;
        Template = template;
        Body = body;
        ResponseBody = responseBody;
        PathParameters = pathParameters;
        BoundFields = boundFields;
    }

    /// <summary>The HTTP method of the binding: GET, PUT, POST, DELETE, PATCH, or a custom one.</summary>
    public string Verb { get; }

    /// <summary>The path template as the rule wrote it (<c>/v1/{name=shelves/*/books/*}</c>).</summary>
    public string Template { get; }

    /// <summary>The request field the body fills: <c>*</c> for the whole message, a field's name, or empty for no body.</summary>
    public string Body { get; }

    /// <summary>The response field that is the answer, or empty for the whole message.</summary>
    public string ResponseBody { get; }

    /// <summary>Each parameter of the endpoint's route pattern and the request field path (proto names) it binds.</summary>
    public IReadOnlyDictionary<string, string> PathParameters { get; }

    /// <summary>The request field paths the path binds (proto names): the query binds every other field the body leaves.</summary>
    public IReadOnlyList<string> BoundFields { get; }
}
