using System.Text.Json;
using Google.Protobuf;
using Google.Protobuf.Reflection;
using Google.Protobuf.WellKnownTypes;
using Grpc.Core;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Routing;
using ProtoHttp.AspNetCore.Framing;
using ProtoHttp.AspNetCore.Internal;
using ProtoHttp.AspNetCore.Negotiation;
using ProtoHttp.AspNetCore.Pipeline;
using ProtoHttp.AspNetCore.Protocols.Native;

namespace ProtoHttp.AspNetCore.Protocols.Rest;

/// <summary>
/// REST routes from <c>google.api.http</c> rules (docs/protocol.md section 14, docs/rest.md): each binding of a unary or
/// server-streaming method's rule is an endpoint at its path template, for its verb only; a rule on a client-streaming
/// or bidirectional method maps nothing and is logged as a warning at startup. The request is built from
/// the body, path and query as the HttpRule docs say; the answer (or its <c>response_body</c> field) goes out in the
/// format <c>Accept</c> names, JSON by default, and a stream in the framings of ProtoHttp's own routes; errors are
/// ProtoHttp's ErrorResult in the negotiated format, with the HTTP status transcoding gives.
/// </summary>
internal sealed class RestProtocol : CallProtocol
{
    public override string Name => ProtocolNames.Rest;

    /// <summary>OpenTelemetry has no name for REST calls of an RPC service; they are ProtoHttp's own.</summary>
    public override string TelemetrySystem => "protohttp";

    public override void MapEndpoints(ServiceEndpoints service)
    {
        var settings = service.Settings;
        var codecs = settings.Codecs;
        var readable = codecs.AcceptPost.Split(", ");
        var verbsByPattern = new Dictionary<string, List<string>>(StringComparer.OrdinalIgnoreCase);
        foreach (var method in service.Methods)
        {
            foreach (var rule in HttpRule.Read(method.Descriptor))
            {
                // A REST call has one request: a rule on a client stream maps nothing, and says so (docs/protocol.md section 14).
                if (method.Descriptor.IsClientStreaming)
                {
                    RestLog.RuleNotServed(settings.Logger, method.Descriptor.FullName, rule.Verb, rule.Template,
                        method.Descriptor.IsServerStreaming ? "bidirectional streaming" : "client streaming");
                    continue;
                }

                var binding = RestBinding.For(rule, method.Descriptor);
                var route = new CallRoute(this, method, service, binding.Template.RoutePattern)
                {
                    AllowsGet = rule.Verb == HttpMethods.Get, Verbs = [rule.Verb],
                    Reads = binding.RequestIsHttpBody || binding.BodyField is { } field && RestBinding.IsHttpBody(field.MessageType) ? ["*/*"] : binding.HasBody ? readable : [],
                    Writes = Writes(binding, method.Method.Type, settings),
                };
                service.MapMethod(method, route, method.Handler(route), $"REST {rule.Verb} {rule.Template}", new HttpMethodMetadata([rule.Verb]), binding, Describe(binding));
                // Patterns that differ only in their parameters' names match the same paths: one 405 endpoint for them all.
                var shape = binding.Template.Shape;
                (verbsByPattern.TryGetValue(shape, out var verbs) ? verbs : verbsByPattern[shape] = [route.Pattern]).Add(rule.Verb);
            }
        }

        foreach (var (shape, patternAndVerbs) in verbsByPattern)
        {
            MapOtherVerbs(service, shape, patternAndVerbs[0], string.Join(", ", patternAndVerbs.Skip(1).Distinct()));
        }
    }

    /// <summary>
    /// A 405 with an ErrorResult and <c>Allow</c> for any other verb at a REST path (routing's own 405 has no body): an
    /// endpoint at the same pattern for every verb, ordered after the routes, so routing picks it only where no verb matched
    /// (and leaves it out of the branches of the verbs the routes take: <see cref="OtherVerbsFallback"/>).
    /// </summary>
    private static void MapOtherVerbs(ServiceEndpoints service, string shape, string pattern, string allow)
    {
        var settings = service.Settings;
        var builder = service.Endpoints.Map(pattern, context => CallErrors.RefuseAsync(
                context, CallRejectedException.MethodNotAllowed(context.Request.Method, allow), pattern, settings.Logger, NativeProtocol.Instance, settings.Codecs))
            .WithDisplayName($"REST {pattern} other verbs")
            .WithMetadata([.. service.ServiceMetadata, new OtherVerbsFallback(shape)])
            .WithMetadata(new EndpointErrorWriter(pattern, settings.Logger, settings.Codecs, NativeProtocol.Instance, errorType: null));
        builder.Add(endpoint => ((RouteEndpointBuilder)endpoint).Order = 1);
        service.MethodEndpoints.Add(builder);
    }

    private static RestRouteMetadata Describe(RestBinding binding) => new(
        binding.Rule.Verb, binding.Rule.Template, binding.Rule.Body, binding.Rule.ResponseBody,
        binding.Template.Parameters.ToDictionary(p => p.Parameter, p => p.FieldPath), [.. binding.Template.FieldPaths]);

    private static string[] Writes(RestBinding binding, MethodType kind, CallSettings settings)
    {
        if (binding.AnswerIsHttpBody)
        {
            return ["*/*"];
        }

        if (kind == MethodType.ServerStreaming)
        {
            var codecs = settings.Codecs;
            return [.. new[] { settings.Streams.Lines, settings.Streams.Events }.Select(type => type.ContentType),
                .. codecs.All.Where(codec => codec.CanBeEnveloped).Select(codec => settings.Streams.Envelopes(codec).ContentType).Distinct()];
        }

        return binding.ResponseField is { FieldType: not FieldType.Message } or { IsRepeated: true }
            ? [settings.Codecs.Canonical(CodecNames.Json).MediaType]
            : [.. settings.Codecs.Writable.Select(type => type.MediaType)];
    }

    public override CallExchange Accept(ProtoHttpServerCallContext call)
    {
        var context = call.HttpContext;
        var request = context.Request;
        var route = call.Route;
        var codecs = route.Settings.Codecs;
        var binding = Binding(context);
        context.Response.Headers.Vary = "Accept";

        var readsMessage = binding.HasBody && !binding.RequestIsHttpBody && !(binding.BodyField is { } field && RestBinding.IsHttpBody(field.MessageType));
        var (reader, own) = readsMessage ? MessageRequestReader.ForBody(request, codecs) : (null, codecs.Codec(CodecNames.Json));
        if (route.Kind == MethodType.ServerStreaming)
        {
            var streams = route.Settings.Streams;
            return new RestStreamExchange(NativeProtocol.NegotiateStream(request, streams, streams.Lines), reader);
        }

        // An answer that is not a message (a repeated response_body) has only its JSON form; an HttpBody its own type.
        var type = binding.ResponseField is { FieldType: not FieldType.Message } or { IsRepeated: true } || binding.AnswerIsHttpBody
            ? codecs.Canonical(CodecNames.Json)
            : AcceptNegotiator.Negotiate(codecs, request.Headers.Accept, own.CanWrite ? own : codecs.Codec(CodecNames.Json)) ?? throw CallRejectedException.NotAcceptable(codecs);
        return route.Exchanges.Of(reader, type, RestUnaryExchange.Make);
    }

    /// <summary>A deadline arrives as on ProtoHttp's own routes, in <c>Connect-Timeout-Ms</c> (docs/protocol.md section 11).</summary>
    public override TimeSpan? ReadTimeout(HttpRequest request) => NativeProtocol.Instance.ReadTimeout(request);

    /// <summary>The request message from the body, path and query (<see cref="RestRequestReader"/>).</summary>
    public static ValueTask<IMessage> ReadMessageAsync(ProtoHttpServerCallContext call, CancellationToken cancellationToken) =>
        RestRequestReader.ReadAsync(call, Binding(call.HttpContext), cancellationToken);

    /// <summary>A unary answer in <paramref name="responseType"/>: the message, its <c>response_body</c> field, or an HttpBody's bytes.</summary>
    public static Task WriteMessageAsync(ProtoHttpServerCallContext call, IMessage message, WritableMediaType responseType)
    {
        var response = call.HttpContext.Response;
        NativeUnaryExchange.AddTrailersAsHeaders(call);
        var binding = Binding(call.HttpContext);
        if (binding.ResponseField is { } field && !IsMessageField(field))
        {
            return WriteFieldJsonAsync(response, FieldJson(message, field, call.Route.Settings.Codecs), call.Route.Settings.Codecs);
        }

        var answer = binding.ResponseField is { } part ? MessageOf(message, part) : message;
        if (binding.AnswerIsHttpBody)
        {
            return WriteHttpBodyAsync(response, answer);
        }

        return NativeUnaryExchange.WriteAnswerAsync(call, answer, responseType);
    }

    /// <summary>
    /// The stream in the framing <c>Accept</c> chose; with a <c>response_body</c>, each record carries that field of the
    /// message, as transcoding writes it (docs/protocol.md section 14): a message field as itself, a scalar or repeated
    /// one as the <c>google.protobuf.Value</c> of its JSON, whose JSON is the field's value.
    /// </summary>
    public static StreamResponseWriter OpenResponseStream(ProtoHttpServerCallContext call, ProtoHttp.Streaming.StreamMediaType type)
    {
        var writer = StreamResponseWriter.For(call.HttpContext, type, call.Route.Settings.Options.StreamKeepAliveInterval);
        if (Binding(call.HttpContext).ResponseField is { } field)
        {
            var codecs = call.Route.Settings.Codecs;
            writer.Part = IsMessageField(field)
                ? message => MessageOf(message, field)
                : message => codecs.Codec(CodecNames.Json).Read(new System.Buffers.ReadOnlySequence<byte>(FieldJson(message, field, codecs)), Value.Descriptor);
        }

        return writer;
    }

    private static bool IsMessageField(FieldDescriptor field) => field is { FieldType: FieldType.Message, IsRepeated: false };

    private static IMessage MessageOf(IMessage message, FieldDescriptor field) =>
        (IMessage?)field.Accessor.GetValue(message) ?? MessageFactory.Create(field.MessageType);

    /// <summary>ProtoHttp's ErrorResult in the negotiated format, as on its own routes (docs/rest.md says why not <c>google.rpc.Status</c>).</summary>
    public override Task WriteErrorAsync(HttpContext context, CallFailure failure, WritableMediaType? errorType, MessageCodecs codecs) =>
        ErrorResultWriter.WriteNegotiatedAsync(context, failure, errorType, codecs);

    private static RestBinding Binding(HttpContext context) =>
        context.GetEndpoint()?.Metadata.GetMetadata<RestBinding>() ?? throw new InvalidOperationException("A REST call reached an endpoint without its binding.");

    // google.api.HttpBody: the bytes as they are, in the content type the service gave them.
    private static async Task WriteHttpBodyAsync(HttpResponse response, IMessage httpBody)
    {
        var fields = httpBody.Descriptor.Fields;
        var contentType = (string)fields[1].Accessor.GetValue(httpBody);
        var data = (ByteString)fields[2].Accessor.GetValue(httpBody);
        response.StatusCode = StatusCodes.Status200OK;
        response.ContentType = contentType.Length > 0 ? contentType : "application/octet-stream";
        response.ContentLength = data.Length;
        await response.Body.WriteAsync(data.Memory);
    }

    // A repeated or scalar response_body: that field's JSON value.
    private static async Task WriteFieldJsonAsync(HttpResponse response, byte[] value, MessageCodecs codecs)
    {
        response.StatusCode = StatusCodes.Status200OK;
        response.ContentType = codecs.Canonical(CodecNames.Json).ContentType;
        response.ContentLength = value.Length;
        await response.Body.WriteAsync(value);
    }

    // A field's JSON value, cut from the JSON of the whole message (its default where the JSON leaves it out).
    private static byte[] FieldJson(IMessage message, FieldDescriptor field, MessageCodecs codecs)
    {
        var buffer = new System.Buffers.ArrayBufferWriter<byte>();
        codecs.Codec(CodecNames.Json).Write(message, buffer);
        using var document = JsonDocument.Parse(buffer.WrittenMemory);
        return document.RootElement.TryGetProperty(field.JsonName, out var found) || document.RootElement.TryGetProperty(field.Name, out found)
            ? System.Text.Encoding.UTF8.GetBytes(found.GetRawText())
            : field.IsMap ? "{}"u8.ToArray() : field.IsRepeated ? "[]"u8.ToArray() : DefaultJson(field);
    }

    private static byte[] DefaultJson(FieldDescriptor field) => field.FieldType switch
    {
        FieldType.String or FieldType.Bytes => "\"\""u8.ToArray(),
        FieldType.Bool => "false"u8.ToArray(),
        FieldType.Enum => System.Text.Encoding.UTF8.GetBytes($"\"{field.EnumType.Values[0].Name}\""),
        FieldType.Int64 or FieldType.SInt64 or FieldType.SFixed64 or FieldType.UInt64 or FieldType.Fixed64 => "\"0\""u8.ToArray(),
        _ => "0"u8.ToArray(),
    };
}
