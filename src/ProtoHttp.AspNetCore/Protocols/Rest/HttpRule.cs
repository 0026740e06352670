using Google.Protobuf;
using Google.Protobuf.Reflection;

namespace ProtoHttp.AspNetCore.Protocols.Rest;

/// <summary>
/// One binding of a method's <c>google.api.http</c> rule (the rule itself or one of its <c>additional_bindings</c>),
/// as google/api/http.proto's <c>HttpRule</c> defines it: the HTTP verb, the path template, which request field the body
/// fills (<c>"*"</c> for all of them, empty for none) and which response field is the answer (empty for all of it).
/// </summary>
internal sealed record HttpRule(string Verb, string Template, string Body, string ResponseBody)
{
    /// <summary>The field number of the <c>google.api.http</c> extension of <c>MethodOptions</c> (google/api/annotations.proto).</summary>
    public const int ExtensionField = 72295728;

    /// <summary>
    /// The bindings of <paramref name="method"/>'s rule, the primary first; empty where it has none. The options are read
    /// from their wire form, where the rule sits whether the app registered google/api/annotations.proto's extension (it
    /// is then an extension) or not (an unknown field): no reflection over extension types, so it holds under Native AOT,
    /// and ProtoHttp needs no reference to Google.Api.CommonProtos (docs/rest.md).
    /// </summary>
    public static IReadOnlyList<HttpRule> Read(MethodDescriptor method)
    {
        if (method.GetOptions() is not { } options)
        {
            return [];
        }

        var rules = new List<HttpRule>();
        var input = new CodedInputStream(options.ToByteArray());
        uint tag;
        while ((tag = input.ReadTag()) != 0)
        {
            if (WireFormat.GetTagFieldNumber(tag) == ExtensionField && WireFormat.GetTagWireType(tag) == WireFormat.WireType.LengthDelimited)
            {
                ReadRule(input.ReadBytes(), rules, nested: false);
            }
            else
            {
                input.SkipLastField();
            }
        }

        return rules;
    }

    // HttpRule: selector 1, get 2, put 3, post 4, delete 5, patch 6, body 7, custom 8 (kind 1, path 2),
    // additional_bindings 11 (one level deep: the docs say bindings do not nest), response_body 12.
    private static void ReadRule(ByteString bytes, List<HttpRule> rules, bool nested)
    {
        string verb = "", template = "", body = "", responseBody = "";
        var additional = new List<ByteString>();
        var input = bytes.CreateCodedInput();
        uint tag;
        while ((tag = input.ReadTag()) != 0)
        {
            switch (WireFormat.GetTagFieldNumber(tag))
            {
                case 2: (verb, template) = ("GET", input.ReadString()); break;
                case 3: (verb, template) = ("PUT", input.ReadString()); break;
                case 4: (verb, template) = ("POST", input.ReadString()); break;
                case 5: (verb, template) = ("DELETE", input.ReadString()); break;
                case 6: (verb, template) = ("PATCH", input.ReadString()); break;
                case 7: body = input.ReadString(); break;
                case 8: (verb, template) = ReadCustom(input.ReadBytes()); break;
                case 11: additional.Add(input.ReadBytes()); break;
                case 12: responseBody = input.ReadString(); break;
                default: input.SkipLastField(); break;
            }
        }

        if (verb.Length > 0 && template.Length > 0)
        {
            rules.Add(new HttpRule(verb, template, body, responseBody));
        }

        if (!nested)
        {
            foreach (var binding in additional)
            {
                ReadRule(binding, rules, nested: true);
            }
        }
    }

    private static (string Verb, string Template) ReadCustom(ByteString bytes)
    {
        string kind = "", path = "";
        var input = bytes.CreateCodedInput();
        uint tag;
        while ((tag = input.ReadTag()) != 0)
        {
            switch (WireFormat.GetTagFieldNumber(tag))
            {
                case 1: kind = input.ReadString(); break;
                case 2: path = input.ReadString(); break;
                default: input.SkipLastField(); break;
            }
        }

        return (kind, path);
    }
}
