using System.Net;
using System.Net.Http.Json;
using Grpc.Net.Client;
using ProtoHttp.FunctionalTests.Infrastructure;
using ProtoService;

namespace ProtoHttp.FunctionalTests;

/// <summary>
/// The built sample started as its users start it, in a process of its own: in every environment, on the address
/// each of ASP.NET Core's conventional settings names, with gRPC on its own h2c port beside it.
/// </summary>
public sealed class SampleProcessTests
{
    public enum AddressSetting
    {
        UrlsArgument,
        UrlsVariable,
        HttpPortsVariable,
    }

    [Theory]
    [InlineData("Development", AddressSetting.UrlsArgument)]
    [InlineData("Production", AddressSetting.UrlsVariable)]
    [InlineData("Staging", AddressSetting.HttpPortsVariable)]
    public async Task StartsInEveryEnvironmentOnTheAddressItIsGiven(string environment, AddressSetting setting)
    {
        var port = LoopbackPort.Free();
        var grpcPort = LoopbackPort.Free();
        List<string> arguments = [$"--Grpc:Url=http://127.0.0.1:{grpcPort}"];
        var variables = new Dictionary<string, string> { ["ASPNETCORE_ENVIRONMENT"] = environment };
        switch (setting)
        {
            case AddressSetting.UrlsArgument:
                arguments.AddRange(["--urls", $"http://127.0.0.1:{port}"]);
                break;
            case AddressSetting.UrlsVariable:
                variables["ASPNETCORE_URLS"] = $"http://127.0.0.1:{port}";
                break;
            case AddressSetting.HttpPortsVariable:
                variables["ASPNETCORE_HTTP_PORTS"] = port.ToString(System.Globalization.CultureInfo.InvariantCulture);
                break;
        }

        await using var sample = await SampleProcess.StartAsync(arguments, variables);
        using var http = new HttpClient { BaseAddress = new Uri($"http://127.0.0.1:{port}") };

        Assert.Contains($"Hosting environment: {environment}", sample.Output);
        Assert.DoesNotContain("http://localhost:5080", sample.Output);
        var page = await http.GetStringAsync("/");
        Assert.Contains("<form", page);
        using var search = await http.PostAsJsonAsync("/ProtoService.proto/Search", new { query = "chai" });
        Assert.Equal(HttpStatusCode.OK, search.StatusCode);
        Assert.Contains("\"Chai\"", await search.Content.ReadAsStringAsync());

        using var channel = GrpcChannel.ForAddress($"http://127.0.0.1:{grpcPort}");
        var reply = await new ProtoService.SearchService.SearchServiceClient(channel).SearchAsync(new SearchRequest { Query = "chai" });
        Assert.Equal("Chai", reply.Result[0].Title);
    }

    [Fact]
    public async Task WithTheConsoleExporterEachCallIsPrintedAsASpanOfProtoHttp()
    {
        var port = LoopbackPort.Free();
        List<string> arguments = ["--urls", $"http://127.0.0.1:{port}", $"--Grpc:Url=http://127.0.0.1:{LoopbackPort.Free()}", "--OpenTelemetry:Exporter=console"];

        await using var sample = await SampleProcess.StartAsync(arguments, new Dictionary<string, string>());
        using var http = new HttpClient { BaseAddress = new Uri($"http://127.0.0.1:{port}") };
        using var search = await http.PostAsJsonAsync("/ProtoService.proto/Search", new { query = "chai" });

        Assert.Equal(HttpStatusCode.OK, search.StatusCode);
        for (var i = 0; i < 100 && !sample.Output.Contains("rpc.system", StringComparison.Ordinal); i++)
        {
            await Task.Delay(100); // The exporter prints when the span ends, after the answer went out.
        }

        Assert.Contains("Activity.DisplayName:        ProtoService.SearchService/Search", sample.Output);
        Assert.Contains("rpc.system: protohttp", sample.Output);
    }
}
