using System.Buffers;
using System.Text;
using Google.Protobuf;
using Google.Protobuf.Reflection;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Http.Features;
using ProtoHttp.AspNetCore.Internal;
using ProtoHttp.AspNetCore.Pipeline;
using ProtoHttp.AspNetCore.Protocols.Native;

namespace ProtoHttp.AspNetCore.Protocols.Rest;

/// <summary>
/// Builds the request message of a REST call as the HttpRule docs say (docs/protocol.md section 14): the body (all of
/// the message, one field, or a <c>google.api.HttpBody</c>'s raw bytes), then the path's variables, then the query
/// string for every field neither binds. The path and the query go through the form binder (docs/protocol.md section
/// 4), so their values are read as every other query string is: enums by name or number, well-known types in their
/// JSON text, repeated keys.
/// </summary>
internal static class RestRequestReader
{
    public static async ValueTask<IMessage> ReadAsync(ProtoHttpServerCallContext call, RestBinding binding, CancellationToken cancellationToken)
    {
        var context = call.HttpContext;
        var settings = call.Route.Settings;
        var codecs = settings.Codecs;
        var descriptor = call.Route.Descriptor.InputType;
        IMessage? message = null;
        var reader = call.Exchange?.RequestReader;
        if (binding.HasBody && reader is not null || binding.RequestIsHttpBody || binding.BodyField is { } f && RestBinding.IsHttpBody(f.MessageType))
        {
            using var body = await MessageRequestReader.ReadBodyBytesAsync(context, settings, cancellationToken);
            message = ReadBody(descriptor, binding, context.Request, reader, body.Data, codecs);
        }

        var form = codecs.Codec(CodecNames.Form);
        if (binding.Template.Match(RawPath(context)) is not { } variables)
        {
            throw new CallRejectedException(StatusCodes.Status404NotFound, Grpc.Core.StatusCode.NotFound,
                $"The path '{context.Request.Path}' is not one of the rule's '{binding.Rule.Template}' (paths are case-sensitive).");
        }

        if (message is null && variables.Count == 0 && !binding.BodyIsWhole && BindsAsSent(context.Request.QueryString, descriptor))
        {
            // Nothing else binds and every key names a field as it is: the raw query is read as ProtoHttp's own GET
            // reads it (docs/protocol.md section 4), with no pairs decoded, encoded again and merged (W8's GET).
            message = MessageRequestReader.ReadQuery(context.Request, form, descriptor);
        }
        else
        {
            message ??= MessageFactory.Create(descriptor);
            if (variables.Count > 0)
            {
                Merge(message, form, variables.Select(variable => (variable.FieldPath, variable.Value)), descriptor);
            }

            if (!binding.BodyIsWhole && context.Request.Query.Count > 0)
            {
                Merge(message, form, QueryPairs(context.Request.Query, binding, descriptor), descriptor);
            }
        }

        codecs.CheckRequiredFields(message);
        return message;
    }

    // The request message with the body read into it: the body is read first, so a whole-message body is the message.
    private static IMessage ReadBody(MessageDescriptor descriptor, RestBinding binding, HttpRequest request, MessageCodec? reader, ReadOnlySequence<byte> data, MessageCodecs codecs)
    {
        if (binding.BodyField is null && !binding.RequestIsHttpBody)
        {
            return reader!.Read(data, descriptor);
        }

        var message = MessageFactory.Create(descriptor);
        if (binding.RequestIsHttpBody)
        {
            SetHttpBody(message, request.ContentType, data);
            return message;
        }

        var field = binding.BodyField!;

        if (field is { FieldType: FieldType.Message, IsRepeated: false })
        {
            var value = MessageFactory.Create(field.MessageType);
            if (RestBinding.IsHttpBody(field.MessageType))
            {
                SetHttpBody(value, request.ContentType, data);
            }
            else
            {
                value = reader!.Read(data, field.MessageType);
            }

            field.Accessor.SetValue(message, value);
            return message;
        }

        // A scalar, repeated or map field: its JSON value, read as the one member of an object of the request's type.
        if (reader != codecs.Codec(CodecNames.Json))
        {
            throw CallRejectedException.UnsupportedMediaType(
                $"The body fills the field '{field.Name}', which is not a message: send it as JSON.", MediaTypes.Json);
        }

        var wrapped = new ArrayBufferWriter<byte>();
        wrapped.Write(Encoding.UTF8.GetBytes($"{{\"{field.JsonName}\":"));
        foreach (var segment in data)
        {
            wrapped.Write(segment.Span);
        }

        wrapped.Write("}"u8);
        return reader.Read(new ReadOnlySequence<byte>(wrapped.WrittenMemory), descriptor);
    }

    /// <summary>
    /// Whether every key of the raw query names a field of the request as it stands (no percent-encoding, no wrapper's
    /// <c>.value</c>), so the form binder can read the query as sent; otherwise the pairs go through <see cref="QueryPairs"/>.
    /// </summary>
    private static bool BindsAsSent(QueryString queryString, MessageDescriptor descriptor)
    {
        var query = queryString.Value.AsSpan();
        if (query.Length <= 1)
        {
            return true;
        }

        foreach (var range in query[1..].Split('&'))
        {
            var pair = query[1..][range];
            var equals = pair.IndexOf('=');
            var key = equals < 0 ? pair : pair[..equals];
            if (key.IsEmpty || key.IndexOfAny('%', '+') >= 0
                || RestFieldPath.Canonical(descriptor, key.ToString()) is not { } path || !key.SequenceEqual(path.Key))
            {
                return false;
            }
        }

        return true;
    }

    private static void SetHttpBody(IMessage httpBody, string? contentType, ReadOnlySequence<byte> data)
    {
        var fields = httpBody.Descriptor.Fields;
        fields[1].Accessor.SetValue(httpBody, contentType ?? "");
        fields[2].Accessor.SetValue(httpBody, ByteString.CopyFrom(data.ToArray()));
    }

    // Binds name=value pairs with the form binder into a message of their own, then merges it in: the pairs name only
    // fields nothing else bound, so merging adds them.
    private static void Merge(IMessage message, MessageCodec form, IEnumerable<(string Key, string Value)> pairs, MessageDescriptor descriptor)
    {
        var text = new StringBuilder();
        foreach (var (key, value) in pairs)
        {
            text.Append(text.Length == 0 ? "" : "&").Append(Uri.EscapeDataString(key)).Append('=').Append(Uri.EscapeDataString(value));
        }

        if (text.Length > 0)
        {
            var bound = form.Read(new ReadOnlySequence<byte>(Encoding.UTF8.GetBytes(text.ToString())), descriptor);
            message.MergeFrom(bound.ToByteString());
        }
    }

    /// <summary>
    /// The query's pairs that bind a field: not one the path or the body binds, not a name the message lacks (ignored,
    /// as transcoding and grpc-gateway ignore them), and a wrapper's <c>.value</c> read as the wrapper itself.
    /// </summary>
    private static IEnumerable<(string Key, string Value)> QueryPairs(IQueryCollection query, RestBinding binding, MessageDescriptor descriptor)
    {
        foreach (var (key, values) in query)
        {
            if (RestFieldPath.Canonical(descriptor, key) is not { } path
                || binding.PathFields.Contains(path.Proto)
                || binding.BodyField is { } body && (path.Proto == body.Name || path.Proto.StartsWith(body.Name + ".", StringComparison.Ordinal)))
            {
                continue;
            }

            foreach (var value in values)
            {
                yield return (path.Key, value ?? "");
            }
        }
    }

    /// <summary>The request's path as the client sent it, still percent-encoded, without the app's path base.</summary>
    private static string RawPath(HttpContext context)
    {
        var raw = context.Features.Get<IHttpRequestFeature>()?.RawTarget;
        if (string.IsNullOrEmpty(raw) || raw[0] != '/')
        {
            return context.Request.Path.Value ?? "/";
        }

        var query = raw.IndexOf('?');
        var path = query < 0 ? raw : raw[..query];
        var pathBase = context.Request.PathBase.Value;
        if (!string.IsNullOrEmpty(pathBase))
        {
            // The path base is the first segments, as many as it has.
            var segments = pathBase.Count(c => c == '/');
            var index = 0;
            for (var i = 0; i < segments && index >= 0; i++)
            {
                index = path.IndexOf('/', index + 1);
            }

            path = index < 0 ? "/" : path[index..];
        }

        return path;
    }
}
