using Northwind;
using ProtoHttp.Client.FunctionalTests.Protos;
using ProtoService;

namespace ProtoHttp.Client.FunctionalTests.Infrastructure;

/// <summary>The generated clients over one <see cref="ProtoHttpCallInvoker"/>, as an application would make them.</summary>
public sealed class ClientFactory(Uri address, string format = CodecNames.Protobuf, HttpMessageHandler? handler = null) : IDisposable
{
    private readonly HttpClient _http = handler is null ? new HttpClient() : new HttpClient(handler);
    private ProtoHttpCallInvoker? _invoker;

    public ProtoHttpCallInvoker Invoker => _invoker ??= new ProtoHttpCallInvoker(_http, new ProtoHttpClientOptions { Address = address, Codec = format });

    public ProtoService.SearchService.SearchServiceClient Search => new(Invoker);

    public NorthwindService.NorthwindServiceClient Northwind => new(Invoker);

    public ClientTestService.ClientTestServiceClient Test => new(Invoker);

    public void Dispose() => _http.Dispose();
}
