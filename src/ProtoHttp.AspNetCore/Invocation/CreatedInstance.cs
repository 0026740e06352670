namespace ProtoHttp.AspNetCore.Invocation;

/// <summary>Ends an instance ProtoHttp made for one call (a service or an interceptor); DI disposes those it made.</summary>
internal static class CreatedInstance
{
    public static ValueTask DisposeAsync(object instance)
    {
        if (instance is IAsyncDisposable asyncDisposable)
        {
            return asyncDisposable.DisposeAsync();
        }

        (instance as IDisposable)?.Dispose();
        return ValueTask.CompletedTask;
    }
}
