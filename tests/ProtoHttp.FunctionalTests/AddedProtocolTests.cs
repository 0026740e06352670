using System.Net;
using System.Text.Json;
using Google.Protobuf;
using Microsoft.AspNetCore.Routing;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.DependencyInjection.Extensions;
using ProtoHttp.AspNetCore;
using ProtoHttp.AspNetCore.Pipeline;
using ProtoHttp.FunctionalTests.Infrastructure;
using ProtoHttp.FunctionalTests.Protos.Streaming;
using ProtoService;

namespace ProtoHttp.FunctionalTests;

/// <summary>
/// docs/architecture.md, "Adding a protocol touches no generic file but one": <see cref="RelabeledProtocol"/> lives in
/// this project, is built from the generic rooms only, and reaches the server by its registration alone (one
/// <c>TryAddEnumerable</c>); its calls run the whole lifecycle: claim, deadline, read, the service, a unary answer, a
/// stream, the error funnel, and the protocol-neutral switch that turns protocols off by name.
/// </summary>
public sealed class AddedProtocolTests : IAsyncLifetime
{
    private static readonly JsonParser Parser = new(JsonParser.Settings.Default.WithIgnoreUnknownFields(false));

    private SampleServer _server = null!;

    public async Task InitializeAsync() => _server = await SampleServer.StartAsync(configure: Register);

    public async Task DisposeAsync() => await _server.DisposeAsync();

    [Fact]
    public async Task AUnaryCallIsAnsweredInItsFormatWithWhatProtoHttpsOwnRouteAnswers()
    {
        var request = new SearchRequest { Query = "chai", ResultPerPage = 3 };

        using var added = await _server.Client.SendAsync(Wire.Post(RelabeledProtocol.PathPrefix + "/ProtoService.proto/Search", request, "application/json"));
        using var native = await _server.Client.SendAsync(Wire.Post("/ProtoService.proto/Search", request, "application/x-protobuf"));

        Assert.Equal(HttpStatusCode.OK, added.StatusCode);
        Assert.Equal("application/json", added.Content.Headers.ContentType?.MediaType);
        var answer = Parser.Parse<SearchResponse>(await added.Content.ReadAsStringAsync());
        Assert.NotEmpty(answer.Result);
        Assert.Equal(SearchResponse.Parser.ParseFrom(await native.Content.ReadAsByteArrayAsync()), answer);
        await NoErrorLoggedAsync();
    }

    [Fact]
    public async Task AServerStreamIsWrittenInItsFramingOneLinePerMessage()
    {
        using var response = await _server.Client.SendAsync(Wire.Post(RelabeledProtocol.PathPrefix + "/streaming_service.proto/Count", new CountRequest { Count = 3 }, "application/json"));

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal("application/x-ndjson", response.Content.Headers.ContentType?.MediaType);
        var lines = (await response.Content.ReadAsStringAsync()).Split('\n', StringSplitOptions.RemoveEmptyEntries);
        // Each line is {"result": message} (docs/protocol.md section 10).
        Assert.Equal([0, 1, 2], lines.Select(line => Parser.Parse<Tick>(JsonDocument.Parse(line).RootElement.GetProperty("result").GetRawText()).Sequence));
        await NoErrorLoggedAsync();
    }

    [Fact]
    public async Task AServiceFailureBeforeTheFirstMessageIsTheProtocolsErrorWithItsStatus()
    {
        using var response = await _server.Client.SendAsync(Wire.Post(RelabeledProtocol.PathPrefix + "/streaming_service.proto/Count",
            new CountRequest { Count = 3, FailCode = "NOT_FOUND", FailAfter = 0, FailMessage = "no ticks here" }, "application/json"));

        Assert.Equal(HttpStatusCode.NotFound, response.StatusCode);
        Assert.Equal("application/json", response.Content.Headers.ContentType?.MediaType);
        var error = Parser.Parse<ErrorResult>(await response.Content.ReadAsStringAsync());
        Assert.Equal(("NOT_FOUND", "no ticks here"), (error.Code, error.ErrorText));
        await NoErrorLoggedAsync();
    }

    [Fact]
    public async Task ARequestTheProtocolDoesNotClaimIsRefusedInItsErrorFormat()
    {
        using var response = await _server.Client.SendAsync(Wire.Post(RelabeledProtocol.PathPrefix + "/ProtoService.proto/Search", new SearchRequest { Query = "chai" }, "application/x-protobuf"));

        Assert.Equal(HttpStatusCode.UnsupportedMediaType, response.StatusCode);
        Assert.Equal("application/json", response.Headers.GetValues("Accept-Post").Single());
        var error = Parser.Parse<ErrorResult>(await response.Content.ReadAsStringAsync());
        Assert.Equal(("INVALID_ARGUMENT", "The Content-Type 'application/x-protobuf' is not JSON; use application/json."), (error.Code, error.ErrorText));
        await NoErrorLoggedAsync();
    }

    [Fact]
    public async Task ADeadlineArrivesInTheProtocolsOwnHeaderAndExpires()
    {
        var request = Wire.Post(RelabeledProtocol.PathPrefix + "/streaming_service.proto/Count", new CountRequest { Count = 0, WaitForCancellation = true }, "application/json");
        request.Headers.Add(RelabeledProtocol.TimeoutHeader, "200");
        var malformed = Wire.Post(RelabeledProtocol.PathPrefix + "/ProtoService.proto/Search", new SearchRequest { Query = "chai" }, "application/json");
        malformed.Headers.Add(RelabeledProtocol.TimeoutHeader, "soon");

        using var expired = await _server.Client.SendAsync(request);
        using var refused = await _server.Client.SendAsync(malformed);

        Assert.Equal(HttpStatusCode.GatewayTimeout, expired.StatusCode);
        Assert.Equal("DEADLINE_EXCEEDED", Parser.Parse<ErrorResult>(await expired.Content.ReadAsStringAsync()).Code);
        Assert.Equal(HttpStatusCode.BadRequest, refused.StatusCode);
        Assert.Equal($"{RelabeledProtocol.TimeoutHeader} must be a positive number of milliseconds, not 'soon'.", Parser.Parse<ErrorResult>(await refused.Content.ReadAsStringAsync()).ErrorText);
        await NoErrorLoggedAsync();
    }

    [Fact]
    public void ItsEndpointsSayItsNameInTheirMetadata()
    {
        var endpoints = AddedEndpoints(_server);

        Assert.Contains(endpoints, metadata => metadata.Method.Name == "Search");
        Assert.Contains(endpoints, metadata => metadata.Method.Name == "Count");
        Assert.All(endpoints, metadata => Assert.Equal(RelabeledProtocol.RpcSystem, metadata.RpcSystem));
    }

    [Fact]
    public async Task DisabledByItsNameItMapsNothing()
    {
        await using var server = await SampleServer.StartAsync(configure: builder =>
        {
            Register(builder);
            builder.Services.AddProtoHttp(o => o.DisabledProtocols.Add(RelabeledProtocol.Protocol.ToUpperInvariant()));
        });

        using var response = await server.Client.SendAsync(Wire.Post(RelabeledProtocol.PathPrefix + "/ProtoService.proto/Search", new SearchRequest { Query = "chai" }, "application/json"));

        Assert.Empty(AddedEndpoints(server));
        Assert.Equal(HttpStatusCode.NotFound, response.StatusCode);
    }

    // The one line a protocol needs: its registration.
    private static void Register(Microsoft.AspNetCore.Builder.WebApplicationBuilder builder) =>
        builder.Services.TryAddEnumerable(ServiceDescriptor.Singleton<CallProtocol, RelabeledProtocol>());

    private static List<ProtoHttpMethodMetadata> AddedEndpoints(SampleServer server) =>
        [.. server.Services.GetRequiredService<EndpointDataSource>().Endpoints
            .Select(endpoint => endpoint.Metadata.GetMetadata<ProtoHttpMethodMetadata>())
            .OfType<ProtoHttpMethodMetadata>()
            .Where(metadata => metadata.Protocol == RelabeledProtocol.Protocol)];

    private async Task NoErrorLoggedAsync()
    {
        // An error logged after the answer went out shows only once the server's request-end line is written.
        await _server.Logs.WhenRequestsEndedAsync();
        Assert.Empty(_server.Logs.Errors);
    }
}
