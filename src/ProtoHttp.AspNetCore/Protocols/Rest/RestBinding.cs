using Google.Protobuf.Reflection;

namespace ProtoHttp.AspNetCore.Protocols.Rest;

/// <summary>
/// One REST route of one method, decided once where it is mapped and kept in its endpoint's metadata: the rule's
/// verb and path template, the request field the body fills, and the response field that is the answer.
/// </summary>
internal sealed class RestBinding
{
    /// <summary>The full name of <c>google.api.HttpBody</c>: raw bytes with their own content type, as request body or answer.</summary>
    public const string HttpBodyType = "google.api.HttpBody";

    private RestBinding(HttpRule rule, PathTemplate template, MethodDescriptor method, FieldDescriptor? bodyField, FieldDescriptor? responseField)
    {
        Rule = rule;
        Template = template;
        BodyField = bodyField;
        ResponseField = responseField;
        PathFields = [.. template.FieldPaths];
        RequestIsHttpBody = rule.Body == "*" && IsHttpBody(method.InputType);
        // A scalar response_body has no MessageType to ask: only a singular message field (or the whole answer) can be one.
        AnswerIsHttpBody = responseField is null
            ? IsHttpBody(method.OutputType)
            : responseField is { FieldType: FieldType.Message, IsRepeated: false } && IsHttpBody(responseField.MessageType);
    }

    public HttpRule Rule { get; }

    public PathTemplate Template { get; }

    /// <summary>The request field the body fills (<c>body: "field"</c>); null for <c>body: "*"</c> and for no body.</summary>
    public FieldDescriptor? BodyField { get; }

    /// <summary>Whether the body is the whole request message (<c>body: "*"</c>): the query then binds nothing.</summary>
    public bool BodyIsWhole => Rule.Body == "*";

    /// <summary>Whether the rule names a body at all.</summary>
    public bool HasBody => Rule.Body.Length > 0;

    /// <summary>The response field that is the answer (<c>response_body</c>); null for the whole message.</summary>
    public FieldDescriptor? ResponseField { get; }

    /// <summary>The field paths the path template binds, in proto names: the query leaves them alone.</summary>
    public HashSet<string> PathFields { get; }

    /// <summary>Whether the request message is a <c>google.api.HttpBody</c> the body fills as raw bytes.</summary>
    public bool RequestIsHttpBody { get; }

    /// <summary>Whether the answer (the message or its <c>response_body</c> field) is a <c>google.api.HttpBody</c>, written as its raw bytes.</summary>
    public bool AnswerIsHttpBody { get; }

    /// <summary>The binding of <paramref name="rule"/> on <paramref name="method"/>.</summary>
    /// <exception cref="InvalidOperationException">The rule's template or a field it names does not fit the method.</exception>
    public static RestBinding For(HttpRule rule, MethodDescriptor method)
    {
        PathTemplate template;
        try
        {
            template = PathTemplate.Parse(rule.Template);
        }
        catch (FormatException ex)
        {
            throw new InvalidOperationException($"The google.api.http rule of {method.FullName}: {ex.Message}", ex);
        }

        foreach (var path in template.FieldPaths)
        {
            Field(method.InputType, path, method, "path variable");
        }

        var body = rule.Body is "" or "*" ? null : Field(method.InputType, rule.Body, method, "body");
        var response = rule.ResponseBody.Length == 0 ? null : Field(method.OutputType, rule.ResponseBody, method, "response_body");
        return new RestBinding(rule, template, method, body, response);
    }

    public static bool IsHttpBody(MessageDescriptor descriptor) => descriptor.FullName == HttpBodyType;

    // A field path in proto names through singular messages (body and response_body name top-level fields; the path's variables may nest).
    private static FieldDescriptor Field(MessageDescriptor type, string path, MethodDescriptor method, string what)
    {
        FieldDescriptor? field = null;
        foreach (var name in path.Split('.'))
        {
            if (field is not null)
            {
                type = field is { FieldType: FieldType.Message, IsRepeated: false }
                    ? field.MessageType
                    : throw new InvalidOperationException($"The google.api.http rule of {method.FullName}: the {what} '{path}' goes through '{field.Name}', which is not a singular message.");
            }

            field = type.FindFieldByName(name)
                ?? throw new InvalidOperationException($"The google.api.http rule of {method.FullName}: the {what} '{path}' names no field of {type.FullName}.");
        }

        return field!;
    }
}
