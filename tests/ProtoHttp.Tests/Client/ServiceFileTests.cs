using Google.Protobuf;
using Grpc.Core;
using Northwind;
using ProtoHttp.Client;

namespace ProtoHttp.Tests.Client;

/// <summary>The URI names the .proto file, which a generated Method does not carry: how the invoker finds it.</summary>
public sealed class ServiceFileTests
{
    [Fact]
    public async Task AServiceWhoseMessagesComeFromAnotherFileIsFoundAmongTheLoadedAssemblies()
    {
        var handler = new FakeHandler(FakeHandler.Message(new OrderList()));

        await Invoker(handler).AsyncUnaryCall(Method("ProtoService.SearchService", "ListOrders"), null, default, new OrdersRequest());

        Assert.Equal("http://server/ProtoService.proto/ListOrders", handler.Request!.RequestUri!.AbsoluteUri);
    }

    [Fact]
    public async Task AServiceNamedInTheOptionsNeedsNoSearch()
    {
        var handler = new FakeHandler(FakeHandler.Message(new OrderList()));
        var options = new ProtoHttpClientOptions { Services = { NorthwindService.Descriptor } };

        await Invoker(handler, options).AsyncUnaryCall(Method("Northwind.NorthwindService", "GetOrders"), null, default, new OrdersRequest());

        Assert.Equal("http://server/Northwind.proto/GetOrders", handler.Request!.RequestUri!.AbsoluteUri);
    }

    [Fact]
    public void AnUnknownServiceSaysHowToNameIt()
    {
        var handler = new FakeHandler(FakeHandler.Message(new OrderList()));

        var ex = Assert.Throws<InvalidOperationException>(() => Invoker(handler).AsyncUnaryCall(Method("elsewhere.Missing", "Get"), null, default, new OrdersRequest()));

        Assert.Contains("ProtoHttpClientOptions.Services.Add(Missing.Descriptor)", ex.Message, StringComparison.Ordinal);
    }

    private static ProtoHttpCallInvoker Invoker(FakeHandler handler, ProtoHttpClientOptions? options = null)
    {
        options ??= new ProtoHttpClientOptions();
        options.Address = new Uri("http://server");
        return new ProtoHttpCallInvoker(new HttpClient(handler), options);
    }

    private static Method<OrdersRequest, OrderList> Method(string service, string name) => new(
        MethodType.Unary,
        service,
        name,
        Marshallers.Create<OrdersRequest>(m => m.ToByteArray(), OrdersRequest.Parser.ParseFrom),
        Marshallers.Create<OrderList>(m => m.ToByteArray(), OrderList.Parser.ParseFrom));
}
